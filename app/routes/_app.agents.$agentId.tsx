import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AgentDetails } from '~/components/agents/agent-details'
import { AgentNotFound } from '~/components/agents/agent-not-found'
import { dialogHandle } from '~/components/dialogs/route-dialog'
import { getAgent } from '~/services/agents/agents.server'
import { findInCurrentScope } from '~/http/organization.server'

export const handle = dialogHandle({ title: 'Agent Details' })

export async function loader({ request, params }: LoaderFunctionArgs) {
  return { agent: await findInCurrentScope(request, (scope) => getAgent(scope, params.agentId ?? '')) }
}

export default function AgentDetailsDialog() {
  const { agent } = useLoaderData<typeof loader>()
  return agent ? <AgentDetails agent={agent} /> : <AgentNotFound />
}
