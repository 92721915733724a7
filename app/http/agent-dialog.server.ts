import type { LoaderFunctionArgs } from '@remix-run/node'
import { getAgent } from '~/services/agents/agents.server'
import { findInCurrentScope, getCurrentScope } from '~/http/organization.server'
import { listKnowledgeSources } from '~/services/knowledge/sources.server'

/** The loader of every dialog about one agent (view, edit, test, delete): the agent, or null when it is not found. */
export async function loadAgentDialog({ request, params }: LoaderFunctionArgs) {
  return { agent: await findInCurrentScope(request, (scope) => getAgent(scope, params.agentId ?? '')) }
}

/** The organization's knowledge sources as the agent form offers them (and the details name them). */
export async function loadKnowledgeOptions(request: Request) {
  const scope = await getCurrentScope(request)
  if (!scope) return []
  const sources = await listKnowledgeSources(scope)
  return sources.map(({ id, title, kind, status }) => ({ id, title, kind, status }))
}
