import { useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Alert, Button, Code, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core'
import { IconBooks, IconUserShare } from '@tabler/icons-react'
import { Link } from '@remix-run/react'
import { useEffect, useId, useRef, useState } from 'react'
import { FormError } from '~/components/auth/form-error'
import { PendingButton } from '~/components/forms/pending-button'
import type { DialogSubmission } from '~/components/hooks/use-dialog-fetcher'
import { MODEL_TYPE_LABELS, TEST_TURNS_MAX, creativityPercent, runAgentSchema } from '~/lib/agents/schemas'
import { STATUS_LABELS } from './agent-status'
import classes from './agents.module.css'
import { DateTime } from '~/components/date-time'
import { AGENT_TEXTS, TEST_CHAT_TEXTS } from './texts'
import { agentPath } from './paths'
import type { AgentItem } from './types'
import { relevancePercent } from '~/lib/agents/knowledge'
import { builtInTextFor } from '~/lib/agents/built-in-texts'

/** The Agent run result of the spec (section 3), as the Test Agent dialog shows it. */
type AgentRunView = {
  output: string
  /** The agent would hand the conversation over to a person (its handoff tool), and why. */
  handoff: { reason: string } | null
  executionId: string
  modelUsed: string
  tokensUsed: { prompt: number; completion: number; total: number }
  timestamp: string
  /** The language the question was written in, when detected: the handoff message is shown as sent in it. */
  language: string | null
  /** The passages the answer was grounded in, or a miss; null when knowledge played no part. */
  knowledge: {
    passages: { sourceId: string; title: string; headingPath: string[]; score: number; text: string }[]
    miss: boolean
  } | null
}

/**
 * A question the model found no answer to, in its instructions and the passages that matched (`read`: some did).
 * The customer gets the no-answer message.
 */
function KnowledgeMiss({ message, read }: { message: string; read: boolean }) {
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconBooks size={18} aria-hidden />}
      title={read ? 'The knowledge found does not answer it' : 'Not in the knowledge or the instructions'}
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
          {read
            ? 'The model read the passages below and the instructions, and found no answer in them'
            : 'No passage matched, and the model found no answer in the instructions'}
          ; the conversation would be marked Needs attention.
        </Text>
      </Stack>
    </Alert>
  )
}

/**
 * The passages the answer was grounded in, best first; each one's text opens on demand (no JavaScript needed).
 * An earlier turn's passages come from the run's record, which keeps where they were and not their text.
 */
function SourcesUsed({ passages }: { passages: NonNullable<AgentRunView['knowledge']>['passages'] }) {
  const titleId = useId()
  return (
    <section aria-labelledby={titleId}>
      <Title order={3} size="h6" mb={4} id={titleId}>
        Sources used
      </Title>
      <ol className={classes.sourcesUsed}>
        {passages.map((passage, index) => {
          const where = (
            <>
              <span className={classes.sourceWhere}>
                {[passage.title, ...passage.headingPath].join(' › ')}
              </span>
              <Text span size="xs" c="gray.7" className={classes.sourceScore}>
                {relevancePercent(passage.score)} relevant
              </Text>
            </>
          )
          return (
            <li key={`${passage.sourceId}-${index}`}>
              {passage.text ? (
                <details>
                  <summary>{where}</summary>
                  <Text size="sm" className={classes.preformatted} mt={4}>
                    {passage.text}
                  </Text>
                </details>
              ) : (
                where
              )}
            </li>
          )
        })}
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

/** The run's Execution Details (spec section 2), tucked under its answer. */
function ExecutionDetails({ run }: { run: AgentRunView }) {
  return (
    <details className={classes.runDetails}>
      <summary>Execution Details</summary>
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
    </details>
  )
}

/** The agent's side of a turn: its answer, or what the customer would get instead, then what it used. */
function AgentAnswer({ run, handoffMessage }: { run: AgentRunView; handoffMessage: string }) {
  return (
    <div className={classes.agentTurn}>
      <Text size="xs" c="gray.7" fw={600}>
        Agent Response
      </Text>
      {run.knowledge?.miss ? (
        <KnowledgeMiss message={run.output} read={run.knowledge.passages.length > 0} />
      ) : run.handoff ? (
        <HandoffResult reason={run.handoff.reason} message={handoffMessage} />
      ) : (
        <Paper withBorder p="sm" bg="gray.0">
          <Text className={classes.preformatted}>{run.output}</Text>
        </Paper>
      )}
      {run.knowledge && run.knowledge.passages.length > 0 ? (
        <SourcesUsed passages={run.knowledge.passages} />
      ) : run.knowledge && !run.knowledge.miss ? (
        <Text size="xs" c="gray.7">
          No passage of the knowledge matched: answered from the agent’s instructions.
        </Text>
      ) : null}
      <ExecutionDetails run={run} />
    </div>
  )
}

type TestAnswer = {
  result: SubmissionResult<string[]>
  /** The conversation so far, the newest turn last. */
  turns: { input: string; run: AgentRunView }[]
  error: string | null
}

/**
 * The content of the Test Agent dialog, a conversation with the agent (docs/decisions/067): each message goes
 * with the earlier turns' execution ids, so the model reads the conversation as a customer's would be. Errors
 * show in one place, above the message box; the answer itself is the sign that the test ran.
 */
export function AgentTestPanel({
  agent,
  submission,
}: {
  agent: AgentItem
  /** The conversation, or why the last message got no answer. */
  submission: DialogSubmission<TestAnswer>
}) {
  const { hydrated, FormComponent, response: answer, pending } = submission
  // "Start over" clears the conversation shown until the next answer.
  const [clearedAt, setClearedAt] = useState<TestAnswer | undefined>(undefined)
  const shown = answer !== clearedAt ? answer : undefined
  const turns = shown?.turns ?? []
  const full = turns.length >= TEST_TURNS_MAX
  const logEnd = useRef<HTMLLIElement>(null)
  useEffect(() => {
    logEnd.current?.scrollIntoView({ block: 'nearest' })
  }, [turns.length])

  const [form, fields] = useForm({
    id: `test-agent-${agent.id}`,
    lastResult: answer?.result,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: runAgentSchema }),
  })

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
      {turns.length > 0 ? (
        <ol className={classes.testLog} aria-label="Test conversation" aria-live="polite">
          {turns.map(({ input, run }, index) => (
            <li key={run.executionId} ref={index === turns.length - 1 ? logEnd : undefined}>
              <div className={classes.customerTurn}>
                <Text size="xs" c="gray.7" fw={600}>
                  You
                </Text>
                <Paper p="sm" className={classes.customerBubble}>
                  <Text className={classes.preformatted}>{input}</Text>
                </Paper>
              </div>
              {/* The handoff as the customer would get it: in the agent's language, else in the question's. */}
              <AgentAnswer
                run={run}
                handoffMessage={builtInTextFor('handoff', agent.handoffMessage, agent, run.language)}
              />
            </li>
          ))}
        </ol>
      ) : (
        <Text size="sm" c="gray.7">
          {TEST_CHAT_TEXTS.empty}
        </Text>
      )}
      <FormComponent
        method="post"
        id={form.id}
        onSubmit={form.onSubmit}
        noValidate={hydrated}
        aria-label="Test Agent"
      >
        <Stack gap="sm">
          {turns.map(({ run }, index) => (
            <input key={run.executionId} type="hidden" name={`history[${index}]`} value={run.executionId} />
          ))}
          <FormError message={shown?.error ? AGENT_TEXTS.testFailed(shown.error) : undefined} />
          {full ? (
            <Text size="sm">{TEST_CHAT_TEXTS.full}</Text>
          ) : (
            <Textarea
              key={fields.input.key}
              id={fields.input.id}
              name={fields.input.name}
              label="Test Message"
              placeholder={turns.length > 0 ? TEST_CHAT_TEXTS.next : 'Type a message to send to the agent...'}
              autosize
              minRows={2}
              maxRows={8}
              required
              data-autofocus
              defaultValue={
                typeof fields.input.initialValue === 'string' ? fields.input.initialValue : undefined
              }
              error={fields.input.errors?.[0]}
              onKeyDown={(event) => {
                // Enter sends, as in a chat; Shift+Enter starts a new line.
                if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                  event.preventDefault()
                  event.currentTarget.form?.requestSubmit()
                }
              }}
            />
          )}
          <Group justify="flex-end">
            {turns.length > 0 ? (
              <Button
                component={Link}
                to={agentPath(agent.id, 'test')}
                replace
                preventScrollReset
                variant="default"
                onClick={(event) => {
                  if (!hydrated) return
                  event.preventDefault()
                  setClearedAt(answer)
                }}
              >
                {TEST_CHAT_TEXTS.startOver}
              </Button>
            ) : null}
            {full ? null : (
              <PendingButton pending={pending} pendingLabel="Testing...">
                Test Agent
              </PendingButton>
            )}
          </Group>
        </Stack>
      </FormComponent>
    </Stack>
  )
}
