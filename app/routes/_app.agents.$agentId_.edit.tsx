import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { AgentFormPanel } from '~/components/agents/agent-form-panel'
import { AgentNotFound } from '~/components/agents/agent-not-found'
import { AGENT_TEXTS } from '~/components/agents/texts'
import { AGENTS_PATH } from '~/components/agents/paths'
import { dialogHandle } from '~/components/dialogs/route-dialog'
import { useDialogFetcher } from '~/components/hooks/use-dialog-fetcher'
import { timeZoneList } from '~/lib/agents/behaviour-form'
import { updateAgentSchema } from '~/lib/agents/schemas'
import { replyRefused } from '~/lib/shared/form-reply'
import { updateAgent } from '~/services/agents/agents.server'
import { ERROR_STATUS } from '~/utils/errors'
import { loadAgentDialog, loadKnowledgeOptions } from '~/http/agent-dialog.server'
import { attemptInScope, getCurrentScope } from '~/http/organization.server'

export const handle = dialogHandle({ title: 'Edit Agent' })

export const loader = async (args: LoaderFunctionArgs) => ({
  ...(await loadAgentDialog(args)),
  timeZones: timeZoneList(),
  knowledgeSources: await loadKnowledgeOptions(args.request),
})

/** From the dialog (a fetcher) the answer is data for it; without JavaScript a success goes back to the list. */
export async function action({ request, params }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const agentId = params.agentId ?? ''
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: updateAgentSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply(), saved: null, error: null }, 400)
  }
  const outcome = await attemptInScope(
    scope,
    // The form fills each translation box with what the customer gets: one left so is no translation.
    (s) => updateAgent(s, agentId, submission.value, { prefilled: true }),
    ERROR_STATUS.SERVER_ERROR.message,
    { action: 'update agent', agentId },
  )
  if (!outcome.ok) {
    const { status, reason } = outcome.failure
    const result = replyRefused(submission, outcome.failure, AGENT_TEXTS.updateFailed(reason))
    return data({ result, saved: null, error: reason }, status)
  }
  if (formData.has('noscript')) return redirect(AGENTS_PATH)
  return { result: submission.reply({ resetForm: true }), saved: { id: outcome.value.id }, error: null }
}

export default function EditAgentDialog() {
  const { agent, timeZones, knowledgeSources } = useLoaderData<typeof loader>()
  const submission = useDialogFetcher<typeof action>(useActionData<typeof action>())
  return agent ? (
    <AgentFormPanel
      agent={agent}
      submission={submission}
      timeZones={timeZones}
      knowledgeSources={knowledgeSources}
    />
  ) : (
    <AgentNotFound />
  )
}
