import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { AgentFormPanel } from '~/components/agents/agent-form-panel'
import { AGENT_TEXTS } from '~/components/agents/texts'
import { AGENTS_PATH } from '~/components/agents/paths'
import { dialogHandle } from '~/components/dialogs/route-dialog'
import { useDialogFetcher } from '~/components/hooks/use-dialog-fetcher'
import { timeZoneList } from '~/lib/agents/behaviour-form'
import { createAgentSchema } from '~/lib/agents/schemas'
import { findTemplate } from '~/lib/agents/templates'
import { replyRefused } from '~/lib/shared/form-reply'
import { createAgent } from '~/services/agents/agents.server'
import { ERROR_STATUS } from '~/utils/errors'
import { attemptInScope, getCurrentScope } from '~/http/organization.server'
import { loadKnowledgeOptions } from '~/http/agent-dialog.server'

export const handle = dialogHandle({ title: 'Create New Agent' })

/** `?template=` names the template the form starts from (an unknown one: blank). */
export const loader = async ({ request }: LoaderFunctionArgs) => ({
  timeZones: timeZoneList(),
  knowledgeSources: await loadKnowledgeOptions(request),
  template: findTemplate(new URL(request.url).searchParams.get('template')) ?? null,
})

/** From the dialog (a fetcher) the answer is data for it; without JavaScript a success goes back to the list. */
export async function action({ request }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: createAgentSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply(), saved: null, error: null }, 400)
  }
  const outcome = await attemptInScope(
    scope,
    // The form fills each translation box with what the customer gets: one left so is no translation.
    (s) => createAgent(s, submission.value, { prefilled: true }),
    ERROR_STATUS.SERVER_ERROR.message,
    { action: 'create agent' },
  )
  if (!outcome.ok) {
    const { status, reason } = outcome.failure
    const result = replyRefused(submission, outcome.failure, AGENT_TEXTS.createFailed(reason))
    return data({ result, saved: null, error: reason }, status)
  }
  if (formData.has('noscript')) return redirect(AGENTS_PATH)
  return { result: submission.reply({ resetForm: true }), saved: { id: outcome.value.id }, error: null }
}

export default function NewAgentDialog() {
  const { timeZones, knowledgeSources, template } = useLoaderData<typeof loader>()
  return (
    <AgentFormPanel
      // A template chosen starts the form again from its words.
      key={template?.id ?? 'blank'}
      template={template ?? undefined}
      submission={useDialogFetcher<typeof action>(useActionData<typeof action>())}
      timeZones={timeZones}
      knowledgeSources={knowledgeSources}
    />
  )
}
