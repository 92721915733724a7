import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { AgentNotFound } from '~/components/agents/agent-not-found'
import { AgentTestPanel } from '~/components/agents/agent-test-panel'
import { dialogHandle } from '~/components/dialogs/route-dialog'
import { useDialogFetcher } from '~/components/hooks/use-dialog-fetcher'
import { TEST_RUN_CONTEXT, runAgentSchema } from '~/lib/agents/schemas'
import { runAgent } from '~/services/agents/run-agent.server'
import { ERROR_STATUS } from '~/utils/errors'
import { loadAgentDialog } from '~/http/agent-dialog.server'
import { attemptInScope, getCurrentScope } from '~/http/organization.server'
import { getRuntime } from '~/runtime/runtime.server'

export const handle = dialogHandle({ title: 'Test Agent' })

export const loader = loadAgentDialog

/** One test message to the agent's model; without JavaScript the answer is the page with the result in it. */
export async function action({ request, params }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const agentId = params.agentId ?? ''
  const submission = parseWithZod(await request.formData(), { schema: runAgentSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply(), run: null, error: null }, 400)
  }
  const { models, embeddings } = await getRuntime()
  const input = { input: submission.value.input, context: TEST_RUN_CONTEXT }
  const outcome = await attemptInScope(
    scope,
    (s) => runAgent(s, agentId, input, { models, embeddings }),
    ERROR_STATUS.SERVER_ERROR.message,
    { action: 'test agent', agentId },
  )
  if (!outcome.ok) {
    return data(
      { result: submission.reply(), run: null, error: outcome.failure.reason },
      outcome.failure.status,
    )
  }
  const { latencyMs: _latency, ...run } = outcome.value
  return { result: submission.reply(), run, error: null }
}

export default function TestAgentDialog() {
  const { agent } = useLoaderData<typeof loader>()
  const submission = useDialogFetcher<typeof action>(useActionData<typeof action>())
  return agent ? <AgentTestPanel agent={agent} submission={submission} /> : <AgentNotFound />
}
