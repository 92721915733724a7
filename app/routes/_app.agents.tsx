import type { Submission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from '@remix-run/react'
import { AgentsScreen } from '~/components/agents/agents-screen'
import { AGENTS_PATH, isDialogChange } from '~/components/agents/dialog-url'
import { AGENT_MESSAGES } from '~/components/agents/messages'
import type { AgentDeleteResponse, AgentSaveResponse, AgentTestResponse } from '~/components/agents/types'
import { TEST_RUN_CONTEXT, createAgentSchema, runAgentSchema, updateAgentSchema } from '~/lib/agent-schemas'
import { PRODUCT_NAME } from '~/lib/constants'
import {
  archiveAgent,
  createAgent,
  listAgents,
  updateAgent,
  type AgentView,
} from '~/services/agents/agents.server'
import { runAgent } from '~/services/agents/run-agent.server'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { ERROR_STATUS, isAppError } from '~/utils/errors'

const SERVER_ERROR = ERROR_STATUS.SERVER_ERROR.message
import { attemptInScope, getCurrentScope } from '~/http/organization.server'
import { getRuntime } from '~/runtime/runtime.server'

export const meta: MetaFunction = () => [{ title: `Agents · ${PRODUCT_NAME}` }]

export async function loader({ request }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  if (!scope) return { hasOrganization: false, agents: [], loadError: null }
  try {
    const { items } = await listAgents(scope)
    return { hasOrganization: true, agents: items, loadError: null }
  } catch (error) {
    const { logger } = await getRuntime()
    logger.error('listing agents failed', { error, organizationId: scope.organizationId })
    return {
      hasOrganization: true,
      agents: [],
      loadError: isAppError(error) ? error.message : AGENT_MESSAGES.loadFailed,
    }
  }
}

// Opening or closing a dialog changes only the URL's dialog part, and a test run changes no agent: the list stays.
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formData,
  formMethod,
  defaultShouldRevalidate,
}) => {
  if (formData?.get('intent') === 'test') return false
  if (!formMethod && isDialogChange(currentUrl, nextUrl)) return false
  return defaultShouldRevalidate
}

/** Create and update answer alike: the form's result, the saved agent, or why it was not saved. */
async function save<V>(
  intent: 'create' | 'update',
  submission: Submission<V>,
  persist: (scope: OrganizationScope, value: V) => Promise<AgentView>,
  { scope, noScript, agentId }: { scope: OrganizationScope | undefined; noScript: boolean; agentId?: string },
) {
  if (submission.status !== 'success') {
    return data(
      { intent, result: submission.reply(), saved: null, error: null } satisfies AgentSaveResponse,
      400,
    )
  }
  const outcome = await attemptInScope(scope, (s) => persist(s, submission.value), SERVER_ERROR, {
    intent,
    agentId,
  })
  if (outcome.ok) {
    if (noScript) return redirect(AGENTS_PATH)
    const saved = { id: outcome.value.id, name: outcome.value.name }
    return data({
      intent,
      result: submission.reply({ resetForm: true }),
      saved,
      error: null,
    } satisfies AgentSaveResponse)
  }
  const { status, reason, fieldErrors } = outcome.failure
  const failed = intent === 'create' ? AGENT_MESSAGES.createFailed : AGENT_MESSAGES.updateFailed
  const result = fieldErrors
    ? submission.reply({ fieldErrors })
    : submission.reply({ formErrors: [failed(reason)] })
  return data({ intent, result, saved: null, error: reason } satisfies AgentSaveResponse, status)
}

/**
 * The Agents screen's forms post here, told apart by `intent`. From a dialog (a fetcher) the answer is data for
 * the dialog; from the page without JavaScript (`noscript`) a success goes back to the list, and a test run's
 * answer is the page with the result in it.
 */
export async function action({ request }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const formData = await request.formData()
  const intent = formData.get('intent')
  const agentId = String(formData.get('agentId') ?? '')
  const noScript = formData.has('noscript')

  switch (intent) {
    case 'create':
      return save(intent, parseWithZod(formData, { schema: createAgentSchema }), createAgent, {
        scope,
        noScript,
      })
    case 'update':
      return save(
        intent,
        parseWithZod(formData, { schema: updateAgentSchema }),
        (s, value) => updateAgent(s, agentId, value),
        { scope, noScript, agentId },
      )
    case 'delete': {
      const outcome = await attemptInScope(scope, (s) => archiveAgent(s, agentId), SERVER_ERROR, {
        intent,
        agentId,
      })
      if (!outcome.ok) {
        return data(
          { intent, deleted: null, error: outcome.failure.reason } satisfies AgentDeleteResponse,
          outcome.failure.status,
        )
      }
      if (noScript) return redirect(AGENTS_PATH)
      const deleted = { id: outcome.value.id, name: outcome.value.name }
      return data({ intent, deleted, error: null } satisfies AgentDeleteResponse)
    }
    case 'test': {
      const submission = parseWithZod(formData, { schema: runAgentSchema })
      if (submission.status !== 'success') {
        return data(
          { intent, result: submission.reply(), run: null, error: null } satisfies AgentTestResponse,
          400,
        )
      }
      const { models } = await getRuntime()
      const input = { input: submission.value.input, context: TEST_RUN_CONTEXT }
      const outcome = await attemptInScope(
        scope,
        (s) => runAgent(s, agentId, input, { models }),
        SERVER_ERROR,
        {
          intent,
          agentId,
        },
      )
      if (!outcome.ok) {
        const failed = { intent, result: submission.reply(), run: null, error: outcome.failure.reason }
        return data(failed satisfies AgentTestResponse, outcome.failure.status)
      }
      const { latencyMs: _latency, ...run } = outcome.value
      return data({ intent, result: submission.reply(), run, error: null } satisfies AgentTestResponse)
    }
  }
  throw data('Unknown intent', 400)
}

export default function AgentsPage() {
  const { agents, hasOrganization, loadError } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <AgentsScreen
      agents={agents}
      hasOrganization={hasOrganization}
      loadError={loadError}
      noScriptData={actionData}
    />
  )
}
