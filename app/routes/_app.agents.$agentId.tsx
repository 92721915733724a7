import type { LoaderFunctionArgs } from '@remix-run/node'
import { loadAgentDialog, loadKnowledgeOptions } from '~/http/agent-dialog.server'
import { useLoaderData } from '@remix-run/react'
import { AgentDetails } from '~/components/agents/agent-details'
import { AgentNotFound } from '~/components/agents/agent-not-found'
import { dialogHandle } from '~/components/dialogs/route-dialog'

export const handle = dialogHandle({ title: 'Agent Details' })

/** The agent, and with "Selected sources" the organization's sources to name them. */
export async function loader(args: LoaderFunctionArgs) {
  const { agent } = await loadAgentDialog(args)
  const selecting = agent?.knowledgeMode === 'selected'
  return { agent, knowledgeSources: selecting ? await loadKnowledgeOptions(args.request) : [] }
}

export default function AgentDetailsDialog() {
  const { agent, knowledgeSources } = useLoaderData<typeof loader>()
  return agent ? <AgentDetails agent={agent} knowledgeSources={knowledgeSources} /> : <AgentNotFound />
}
