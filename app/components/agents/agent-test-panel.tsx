import { useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Alert, Code, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core'
import { IconBooks, IconUserShare } from '@tabler/icons-react'
import { notifications } from '@mantine/notifications'
import { useEffect, type FormEvent } from 'react'
import { FormError } from '~/components/auth/form-error'
import { PendingButton } from '~/components/forms/pending-button'
import type { DialogSubmission } from '~/components/hooks/use-dialog-fetcher'
import {
  MODEL_TYPE_LABELS,
  TEST_MESSAGE_REQUIRED,
  creativityPercent,
  runAgentSchema,
} from '~/lib/agents/schemas'
import { STATUS_LABELS } from './agent-status'
import classes from './agents.module.css'
import { DateTime } from '~/components/date-time'
import { AGENT_TEXTS } from './texts'
import type { AgentItem } from './types'
import { relevancePercent } from '~/lib/agents/knowledge'

/** The Agent run result of the spec (section 3), as the Test Agent dialog shows it. */
type AgentRunView = {
  output: string
  /** The agent would hand the conversation over to a person (its handoff tool), and why. */
  handoff: { reason: string } | null
  executionId: string
  modelUsed: string
  tokensUsed: { prompt: number; completion: number; total: number }
  timestamp: string
  /** The passages the answer was grounded in, or a miss; null when knowledge played no part. */
  knowledge: {
    passages: { sourceId: string; title: string; headingPath: string[]; score: number; text: string }[]
    miss: boolean
  } | null
}

/**
 * A question no passage answers: none matched (the model is not asked), or the model found no answer in those that
 * did (`read`). The customer gets the no-answer message.
 */
function KnowledgeMiss({ message, read }: { message: string; read: boolean }) {
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconBooks size={18} aria-hidden />}
      title={read ? 'The knowledge found does not answer it' : 'No knowledge matched'}
    >
      <Stack gap="sm">
        {message ? (
          <div>
            <Text size="sm">The customer would get:</Text>
            <Text size="sm" className={classes.preformatted} fw={500}>
              {message}
            </Text>
          </div>
        ) : (
          <Text size="sm">The customer would get nothing (the no-answer message is empty).</Text>
        )}
        <Text size="sm">
          {read ? 'The model read the passages below and found no answer in them' : 'The model was not asked'}
          ; the conversation would be marked Needs attention.
        </Text>
      </Stack>
    </Alert>
  )
}

/** The passages the answer was grounded in, best first; each one's text opens on demand (no JavaScript needed). */
function SourcesUsed({ passages }: { passages: NonNullable<AgentRunView['knowledge']>['passages'] }) {
  return (
    <section aria-labelledby="sources-used-title">
      <Title order={3} size="h5" mb="xs" id="sources-used-title">
        Sources used
      </Title>
      <ol className={classes.sourcesUsed}>
        {passages.map((passage, index) => (
          <li key={`${passage.sourceId}-${index}`}>
            <details>
              <summary>
                <span className={classes.sourceWhere}>
                  {[passage.title, ...passage.headingPath].join(' › ')}
                </span>
                <Text span size="xs" c="gray.7" className={classes.sourceScore}>
                  {relevancePercent(passage.score)} relevant
                </Text>
              </summary>
              <Text size="sm" className={classes.preformatted} mt={4}>
                {passage.text}
              </Text>
            </details>
          </li>
        ))}
      </ol>
    </section>
  )
}

/** What a handoff does in a conversation: the tool call, its reason, and what the customer would receive. */
function HandoffResult({ reason, message }: { reason: string; message: string }) {
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconUserShare size={18} aria-hidden />}
      title="The agent would hand over to a person"
    >
      <Stack gap="sm">
        <dl className={classes.facts}>
          <dt>Tool call</dt>
          <dd>
            <Code>handoff</Code>
          </dd>
          <dt>Reason</dt>
          <dd className={classes.preformatted}>{reason}</dd>
          <dt>Customer receives</dt>
          <dd className={classes.preformatted}>{message}</dd>
        </dl>
        <Text size="sm">The conversation would be paused and marked Needs attention.</Text>
      </Stack>
    </Alert>
  )
}

function RunResult({ run, handoffMessage }: { run: AgentRunView; handoffMessage: string }) {
  return (
    <Stack gap="md" aria-live="polite">
      <div>
        <Title order={3} size="h5" mb="xs">
          Agent Response
        </Title>
        {run.knowledge?.miss ? (
          <KnowledgeMiss message={run.output} read={run.knowledge.passages.length > 0} />
        ) : run.handoff ? (
          <HandoffResult reason={run.handoff.reason} message={handoffMessage} />
        ) : (
          <Paper withBorder p="sm" bg="gray.0">
            <Text className={classes.preformatted}>{run.output}</Text>
          </Paper>
        )}
      </div>
      {run.knowledge && run.knowledge.passages.length > 0 ? (
        <SourcesUsed passages={run.knowledge.passages} />
      ) : null}
      <div>
        <Title order={3} size="h5" mb="xs">
          Execution Details
        </Title>
        <dl className={classes.facts}>
          <dt>Execution ID</dt>
          <dd>
            <Text span ff="monospace" size="sm">
              {run.executionId}
            </Text>
          </dd>
          <dt>Model Used</dt>
          <dd>{run.modelUsed || 'None (not asked)'}</dd>
          <dt>Prompt Tokens</dt>
          <dd>{run.tokensUsed.prompt}</dd>
          <dt>Completion Tokens</dt>
          <dd>{run.tokensUsed.completion}</dd>
          <dt>Total Tokens</dt>
          <dd>{run.tokensUsed.total}</dd>
          <dt>Timestamp</dt>
          <dd>
            <DateTime value={run.timestamp} />
          </dd>
        </dl>
      </div>
    </Stack>
  )
}

/** The content of the Test Agent dialog: one message to the agent's model, its answer and the run's details. */
export function AgentTestPanel({
  agent,
  submission,
}: {
  agent: AgentItem
  /** The form's result and the run, or why there is none. */
  submission: DialogSubmission<{
    result: SubmissionResult<string[]>
    run: AgentRunView | null
    error: string | null
  }>
}) {
  const { hydrated, FormComponent, response: answer, settled: done, pending } = submission

  const [form, fields] = useForm({
    id: `test-agent-${agent.id}`,
    lastResult: answer?.result,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: runAgentSchema }),
  })

  useEffect(() => {
    if (!done) return
    if (done.run) notifications.show({ color: 'green', message: AGENT_TEXTS.tested })
    else if (done.error) notifications.show({ color: 'red', message: AGENT_TEXTS.testFailed(done.error) })
  }, [done])

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submission = parseWithZod(new FormData(event.currentTarget), { schema: runAgentSchema })
    if (submission.status === 'error') {
      notifications.show({ color: 'red', message: submission.error?.input?.[0] ?? TEST_MESSAGE_REQUIRED })
    }
    form.onSubmit(event)
  }

  return (
    <Stack gap="md">
      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
        {agent.name}
      </Text>
      <dl className={classes.summary}>
        <div>
          <dt>Model</dt>
          <dd>{MODEL_TYPE_LABELS[agent.modelType]}</dd>
        </div>
        <div>
          <dt>Creativity</dt>
          <dd>{creativityPercent(agent.creativityLevel)}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>{STATUS_LABELS[agent.status]}</dd>
        </div>
        <div>
          <dt>Max Tokens</dt>
          <dd>{agent.maxTokens ?? 'Provider default'}</dd>
        </div>
      </dl>
      <FormComponent
        method="post"
        id={form.id}
        onSubmit={onSubmit}
        noValidate={hydrated}
        aria-label="Test Agent"
      >
        <Stack gap="sm">
          <FormError message={answer?.error ? AGENT_TEXTS.testFailed(answer.error) : undefined} />
          <Textarea
            key={fields.input.key}
            id={fields.input.id}
            name={fields.input.name}
            label="Test Message"
            placeholder="Type a message to send to the agent..."
            autosize
            minRows={3}
            maxRows={8}
            required
            data-autofocus
            defaultValue={
              typeof fields.input.initialValue === 'string' ? fields.input.initialValue : undefined
            }
            error={fields.input.errors?.[0]}
          />
          <Group justify="flex-end">
            <PendingButton pending={pending} pendingLabel="Testing...">
              Test Agent
            </PendingButton>
          </Group>
        </Stack>
      </FormComponent>
      {answer?.run ? <RunResult run={answer.run} handoffMessage={agent.handoffMessage} /> : null}
    </Stack>
  )
}
