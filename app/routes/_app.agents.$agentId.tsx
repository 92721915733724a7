import { loadAgentDialog } from '~/http/agent-dialog.server'
import { useLoaderData } from '@remix-run/react'
import { AgentDetails } from '~/components/agents/agent-details'
import { AgentNotFound } from '~/components/agents/agent-not-found'
import { dialogHandle } from '~/components/dialogs/route-dialog'

export const handle = dialogHandle({ title: 'Agent Details' })

export const loader = loadAgentDialog

export default function AgentDetailsDialog() {
  const { agent } = useLoaderData<typeof loader>()
  return agent ? <AgentDetails agent={agent} /> : <AgentNotFound />
}
