import type { LoaderFunctionArgs } from '@remix-run/node'
import { getAgent } from '~/services/agents/agents.server'
import { findInCurrentScope } from '~/http/organization.server'

/** The loader of every dialog about one agent (view, edit, test, delete): the agent, or null when it is not found. */
export async function loadAgentDialog({ request, params }: LoaderFunctionArgs) {
  return { agent: await findInCurrentScope(request, (scope) => getAgent(scope, params.agentId ?? '')) }
}
