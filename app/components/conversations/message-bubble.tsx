import { Group, Stack, Text } from '@mantine/core'
import { DateTime } from '~/components/date-time'
import { MESSAGE_KIND_LABELS, type ConversationMessage } from '~/lib/conversations/conversations'
import { ActionButton } from './action-button'
import { MessageMedia } from './message-media'
import classes from './conversations.module.css'
import { MESSAGE_STATUS_LABELS, CONVERSATION_UI_TEXTS as T } from './texts'

function authorLabel(message: ConversationMessage, customer: string): string {
  const { author } = message
  if (author.kind === 'customer') return customer
  if (author.kind === 'person') return author.name ?? T.person
  if (author.kind === 'external') return author.name ?? T.external
  return `AI · ${author.agentName ?? 'agent'}`
}

/** The model run behind an AI answer, folded away until asked for (a plain <details>: no script needed). */
function RunDetails({
  run,
}: {
  run: NonNullable<Extract<ConversationMessage['author'], { kind: 'ai' }>['run']>
}) {
  return (
    <details>
      <summary>
        <Text span size="xs" c="gray.7">
          {T.runDetails}
        </Text>
      </summary>
      <Text size="xs" c="gray.7" component="dl" style={{ margin: 0 }}>
        <span>Model: {run.modelUsed ?? '—'}</span>
        {' · '}
        <span>
          Tokens: {run.totalTokens} ({run.promptTokens} prompt, {run.completionTokens} completion)
        </span>
        {' · '}
        <span>Latency: {run.latencyMs} ms</span>
        <br />
        <span>Execution id: {run.executionId}</span>
      </Text>
    </details>
  )
}

/** One message of the transcript: the customer's on the left, answers on the right, with who and how it went. */
export function MessageBubble({
  message,
  customer,
  retryAction,
  mediaPath,
}: {
  message: ConversationMessage
  customer: string
  retryAction: string
  /** Where the message's file is served (the conversation's media route). */
  mediaPath: string
}) {
  const failed = message.status === 'failed'
  // A failed AI answer is retried through the customer's message it answers (marked failed too); a person's
  // reply by itself.
  const retryable = failed && (message.direction === 'inbound' || message.author.kind === 'person')
  return (
    <Stack
      gap={2}
      className={`${classes.bubble} ${message.direction === 'inbound' ? classes.inbound : classes.outbound}`}
      data-author={message.author.kind}
      component="li"
    >
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Text size="xs" fw={600}>
          {authorLabel(message, customer)}
        </Text>
        <Text size="xs" c="gray.7">
          <DateTime value={message.at} time />
        </Text>
      </Group>
      {message.media ? (
        <MessageMedia media={message.media} src={mediaPath} from={authorLabel(message, customer)} />
      ) : null}
      {/* A file shown needs no "[photo]" under it; a caption or a transcript is kept. */}
      {message.media?.file && message.text === MESSAGE_KIND_LABELS[message.media.kind] ? null : (
        <Text size="sm">{message.text || '—'}</Text>
      )}
      <Text size="xs" c={failed ? 'red.8' : 'gray.7'}>
        {MESSAGE_STATUS_LABELS[message.status] ?? message.status}
        {message.failureReason ? `: ${message.failureReason}` : ''}
      </Text>
      {message.author.kind === 'ai' && message.author.run ? <RunDetails run={message.author.run} /> : null}
      {retryable ? (
        // A failed reply sent again: the AI's through the queue, a person's straight to the platform.
        <ActionButton
          action={retryAction}
          fields={{ messageId: message.id }}
          label={T.retry}
          pendingLabel={T.retrying}
          size="compact-xs"
          variant="light"
        />
      ) : null}
    </Stack>
  )
}
