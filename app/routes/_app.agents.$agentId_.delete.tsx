import { data, redirect, type ActionFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { AgentDeletePanel } from '~/components/agents/agent-delete-panel'
import { AgentNotFound } from '~/components/agents/agent-not-found'
import { AGENTS_PATH } from '~/components/agents/paths'
import { dialogHandle } from '~/components/dialogs/route-dialog'
import { useDialogFetcher } from '~/components/hooks/use-dialog-fetcher'
import { archiveAgent } from '~/services/agents/agents.server'
import { ERROR_STATUS } from '~/utils/errors'
import { loadAgentDialog } from '~/http/agent-dialog.server'
import { attemptInScope, getCurrentScope } from '~/http/organization.server'

export const handle = dialogHandle({ title: 'Delete Agent', size: 'md' })

export const loader = loadAgentDialog

/** Deleting archives the agent; without JavaScript a success goes back to the list. */
export async function action({ request, params }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const agentId = params.agentId ?? ''
  const formData = await request.formData()
  const outcome = await attemptInScope(
    scope,
    (s) => archiveAgent(s, agentId),
    ERROR_STATUS.SERVER_ERROR.message,
    { action: 'delete agent', agentId },
  )
  if (!outcome.ok) return data({ deleted: null, error: outcome.failure.reason }, outcome.failure.status)
  if (formData.has('noscript')) return redirect(AGENTS_PATH)
  return { deleted: { id: outcome.value.id }, error: null }
}

export default function DeleteAgentDialog() {
  const { agent } = useLoaderData<typeof loader>()
  const submission = useDialogFetcher<typeof action>(useActionData<typeof action>())
  return agent ? <AgentDeletePanel agent={agent} submission={submission} /> : <AgentNotFound />
}
