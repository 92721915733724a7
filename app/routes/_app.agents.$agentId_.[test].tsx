import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { AgentNotFound } from '~/components/agents/agent-not-found'
import { AgentTestPanel } from '~/components/agents/agent-test-panel'
import { dialogHandle } from '~/components/dialogs/route-dialog'
import { useDialogFetcher } from '~/components/hooks/use-dialog-fetcher'
import { TEST_RUN_CONTEXT, runAgentSchema } from '~/lib/agents/schemas'
import { getAgent } from '~/services/agents/agents.server'
import {
  loadTestTurns,
  MODEL_NOT_CONFIGURED,
  runAgentTurn,
  type TestTurn,
} from '~/services/agents/run-agent.server'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { ERROR_STATUS } from '~/utils/errors'
import { TEST_CHAT_TEXTS } from '~/components/agents/texts'
import { loadAgentDialog } from '~/http/agent-dialog.server'
import { attemptInScope, getCurrentScope } from '~/http/organization.server'
import { getRuntime } from '~/runtime/runtime.server'

export const handle = dialogHandle({ title: 'Test Agent' })

export const loader = loadAgentDialog

/**
 * One message of the test conversation (docs/decisions/067): the model reads the earlier turns (posted as their
 * execution ids) before it. The answer carries the whole conversation, so that without JavaScript the page shows
 * it too; a failure keeps the turns before it.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const agentId = params.agentId ?? ''
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: runAgentSchema })
  if (submission.status !== 'success') {
    // Without JavaScript an empty message reaches the server: the conversation so far stays on the page.
    const sent = parseWithZod(formData, { schema: runAgentSchema.pick({ history: true }) })
    const history = sent.status === 'success' ? sent.value.history : undefined
    const turns = scope ? await earlierTurnsOrNone(scope, agentId, history) : []
    return data({ result: submission.reply(), turns: turns.map(forTheChat), error: null }, 400)
  }
  const { models, embeddings } = await getRuntime()
  const { input, history } = submission.value
  const outcome = await attemptInScope(
    scope,
    (s) => runAgentTurn(s, agentId, { input, history, context: TEST_RUN_CONTEXT }, { models, embeddings }),
    ERROR_STATUS.SERVER_ERROR.message,
    { action: 'test agent', agentId },
  )
  if (!outcome.ok) {
    const turns = scope ? await earlierTurnsOrNone(scope, agentId, history) : []
    // The API and the log name the settings; the owner is told what it means (issue 34).
    const { reason } = outcome.failure
    const error = reason === MODEL_NOT_CONFIGURED ? TEST_CHAT_TEXTS.noModel : reason
    return data({ result: submission.reply(), turns: turns.map(forTheChat), error }, outcome.failure.status)
  }
  const { earlier, result } = outcome.value
  const turns = [...earlier, { input, run: result }].map(forTheChat)
  return { result: submission.reply({ resetForm: true }), turns, error: null }
}

/** A turn as the chat shows it (the latency is the run API's, not the dialog's). */
const forTheChat = ({ input, run: { latencyMs: _latency, ...run } }: TestTurn) => ({ input, run })

/** After a failed turn, the ones before it, when they can still be read. */
async function earlierTurnsOrNone(scope: OrganizationScope, agentId: string, history: string[] | undefined) {
  try {
    return await loadTestTurns(scope, await getAgent(scope, agentId), history)
  } catch {
    return []
  }
}

export default function TestAgentDialog() {
  const { agent } = useLoaderData<typeof loader>()
  const submission = useDialogFetcher<typeof action>(useActionData<typeof action>())
  return agent ? <AgentTestPanel agent={agent} submission={submission} /> : <AgentNotFound />
}
