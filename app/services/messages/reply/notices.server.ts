import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { messages, type Message } from '~/db/schema'
import { splitMessage } from '~/lib/conversations/reply-pipeline'
import { builtInTextFor, type BuiltInTextKind } from '~/lib/agents/built-in-texts'
import { AGENT_LANGUAGE_DEFAULTS } from '~/lib/agents/agent-language'
import type { ReplyContext } from './queries.server'
import { withReplyRetries, type ReplyRetryOptions } from './retries.server'
import type { Sender } from './senders.server'

// The agent's fixed messages (issue #17): the fallback when the model fails, "text only", out of hours, and
// (issue #18) "I don't know" when no knowledge answers, in the agent's language or the customer's, in the
// owner's translation when there is one (issue 36, ADR 071 and 072). Each is
// stored before it is sent, under a key unique in the conversation (the person replies' idempotency index), so a
// job that runs again after a crash sends it at most once more (the part in flight), never twice over.

export type NoticeKind = Exclude<BuiltInTextKind, 'handoff'>

/**
 * Sends one of the agent's fixed messages to the customer, once per `key`: stored as an outbound message (the
 * agent's name as its sender, no run) and sent in parts at the platform's limit with the retry policy. Returns
 * undefined when the text is empty (the agent is set to say nothing). A platform failure is thrown to the caller.
 */
export async function sendNotice(
  deps: ReplyRetryOptions & { db: Database },
  { channel, conversation, agent }: Pick<ReplyContext, 'channel' | 'conversation' | 'agent'>,
  sender: Sender,
  notice: { kind: NoticeKind; key: string; text: string },
): Promise<Message | undefined> {
  const language = agent ?? AGENT_LANGUAGE_DEFAULTS
  const text = builtInTextFor(notice.kind, notice.text, language, conversation.language).trim()
  if (!text) return undefined
  const clientKey = `${notice.kind}:${notice.key}`
  const [created] = await deps.db
    .insert(messages)
    .values({
      organizationId: channel.organizationId,
      channelId: channel.id,
      conversationId: conversation.id,
      direction: 'outbound',
      senderId: channel.platformChannelId,
      senderName: agent?.name ?? null,
      text,
      status: 'pending',
      clientKey,
    })
    .onConflictDoNothing({
      target: [messages.conversationId, messages.clientKey],
      where: sql`${messages.clientKey} is not null`,
    })
    .returning()
  const stored =
    created ??
    (
      await deps.db
        .select()
        .from(messages)
        .where(and(eq(messages.conversationId, conversation.id), eq(messages.clientKey, clientKey)))
        .limit(1)
    )[0]
  if (!stored || stored.status !== 'pending') return stored

  const parts = splitMessage(stored.text, sender.limit)
  let platformMessageId = stored.platformMessageId
  for (let index = stored.sentParts; index < parts.length; index++) {
    const sent = await withReplyRetries(deps, sender.platform, 'send', () => sender.send(parts[index]))
    platformMessageId ??= sent.platformMessageId
    await deps.db
      .update(messages)
      .set({ sentParts: index + 1, platformMessageId })
      .where(eq(messages.id, stored.id))
  }
  const [sent] = await deps.db
    .update(messages)
    .set({ status: 'sent', failureReason: null, platformSentAt: sql`statement_timestamp()` })
    .where(and(eq(messages.id, stored.id), eq(messages.status, 'pending')))
    .returning()
  return sent ?? stored
}
