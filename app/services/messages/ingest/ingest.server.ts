import { sql, type SQLWrapper } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { jobsIn } from '~/db/jobs.server'
import { agents, channels, conversations, messages } from '~/db/schema'
import { REPLY_FAILURES } from '~/lib/conversations/reply-pipeline'
import type { InboundMessage } from '~/integrations/inbound-message'
import {
  REPLY_QUEUE,
  replyJobOptions,
  replyWakeupSql,
  type ReplyJobData,
  type ReplyQueue,
} from './reply-queue.server'
import { detectLanguages } from '~/integrations/language/detect.server'

/** An inbound message with the channel it arrived on: what the ingest stage stores. */
export type NormalizedMessage = InboundMessage & { organizationId: string; channelId: string }

/** What storing one inbound message did: stored now (with its reply job), or dropped as already stored. */
export type IngestResult = { stored: boolean; messageId?: string }

/**
 * Stores an inbound message and, in the same transaction, enqueues its reply job: a rollback removes both, and a
 * stored answerable message always has its job. A message already stored (the platform redelivered it) is
 * dropped by the unique key and enqueues nothing. Returns whether it was stored now.
 */
export async function ingestInbound({
  db,
  boss,
  message,
}: {
  db: Database
  boss: ReplyQueue
  message: NormalizedMessage
}): Promise<IngestResult> {
  const [{ language, greeting }] = await detectLanguages([message])
  return db.transaction(async (tx) => {
    const conversation = await upsertConversation(tx, { ...message, language, greeting })

    const [inserted] = await tx
      .insert(messages)
      .values({
        organizationId: message.organizationId,
        channelId: message.channelId,
        conversationId: conversation.id,
        direction: 'inbound',
        platformMessageId: message.platformMessageId,
        senderId: message.senderId,
        senderName: message.senderName,
        text: message.text,
        language,
        kind: message.kind,
        media: message.media ?? null,
        // While a person answers the conversation, its messages are stored but not queued for the AI.
        status: !message.answerable ? 'ignored' : conversation.paused ? 'received' : 'queued',
        failureReason: message.answerable && conversation.paused ? REPLY_FAILURES.aiPaused : null,
        platformSentAt: message.platformSentAt,
        receivedAt: new Date(),
      })
      .onConflictDoNothing({ target: [messages.channelId, messages.direction, messages.platformMessageId] })
      .returning({ id: messages.id })
    if (!inserted) return { stored: false }

    if (message.answerable && !conversation.paused) {
      const data: ReplyJobData = { messageId: inserted.id }
      await boss.send(REPLY_QUEUE, data, {
        ...replyJobOptions(conversation.id, conversation.burstWaitSeconds),
        db: jobsIn(tx),
      })
      // Not due yet, so pg-boss tells no worker: announced with its delay (jobs/reply-wakeups).
      if (conversation.burstWaitSeconds > 0 && boss.schema) {
        await tx.execute(sql.raw(replyWakeupSql(boss.schema, conversation.burstWaitSeconds * 1000, 1)))
      }
    }
    return { stored: true, messageId: inserted.id }
  })
}

/**
 * The burst wait of the agent answering on a channel (0 when none does): a reply job starts that long after its
 * message, so that the messages a customer sends meanwhile are answered together (docs/decisions/041).
 */
export const burstWaitOf = (channelId: SQLWrapper) =>
  sql<number>`coalesce((select a.burst_wait_seconds from ${channels} ch join ${agents} a on a.id = ch.agent_id
    where ch.id = ${channelId}), 0)`.mapWith(Number)

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]

/** The conversation of a chat on a channel, created on its first message. */
export async function upsertConversation(
  db: Database | Transaction,
  chat: Pick<
    NormalizedMessage,
    'organizationId' | 'channelId' | 'platformChatId' | 'senderHandle' | 'senderLanguage'
  > & {
    language?: string | null
    /** Told by a greeting or thanks alone: the conversation's language only when it has none (detect.server.ts). */
    greeting?: boolean
  },
): Promise<{ id: string; paused: boolean; burstWaitSeconds: number }> {
  const [conversation] = await db
    .insert(conversations)
    .values({
      organizationId: chat.organizationId,
      channelId: chat.channelId,
      platformChatId: chat.platformChatId,
      customerHandle: chat.senderHandle ?? null,
      customerLanguage: chat.senderLanguage ?? null,
      language: chat.language ?? null,
    })
    // Also when nothing changes, so that the existing row comes back too.
    .onConflictDoUpdate({
      target: [conversations.channelId, conversations.platformChatId],
      set: {
        customerHandle: sql`coalesce(excluded.customer_handle, ${conversations.customerHandle})`,
        customerLanguage: sql`coalesce(excluded.customer_language, ${conversations.customerLanguage})`,
        language: chat.greeting
          ? sql`coalesce(${conversations.language}, excluded.language)`
          : sql`coalesce(excluded.language, ${conversations.language})`,
      },
    })
    .returning({
      id: conversations.id,
      paused: sql<boolean>`${conversations.aiPausedAt} is not null`,
      burstWaitSeconds: burstWaitOf(conversations.channelId),
    })
  return conversation
}
