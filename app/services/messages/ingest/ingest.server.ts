import { SQL, sql, type SQLWrapper } from 'drizzle-orm'
import { fromDrizzle } from 'pg-boss'
import type { Database } from '~/db/client.server'
import { rowsOf } from '~/db/rows.server'
import { agents, channels, conversations, messages, type Channel } from '~/db/schema'
import { REPLY_FAILURES } from '~/lib/reply-pipeline'
import type { TelegramUpdateBody, TelegramUser } from '~/integrations/telegram/update.server'
import { unreadableText, type MessageKind } from '~/lib/conversations'
import {
  REPLY_QUEUE,
  replyJobOptions,
  replyWakeupSql,
  type ReplyJobData,
  type ReplyQueue,
} from './reply-queue.server'

/** An inbound message as every platform's receiver hands it over, whatever the platform's own shape. */
export type NormalizedMessage = {
  organizationId: string
  channelId: string
  /** The conversation: Telegram's chat id, Messenger's PSID, WhatsApp's wa_id. */
  platformChatId: string
  /** Unique per channel for the platform (Telegram: `<chat id>:<message id>`), so a redelivery is dropped. */
  platformMessageId: string
  senderId: string | null
  senderName: string | null
  /** The text; for a message that is not text, its label and caption ("[photo] my order"), see unreadableText. */
  text: string
  /** Text, or what else the customer sent: the agent answers text, and says once per burst that it reads only text. */
  kind: MessageKind
  /** From a person: the agent answers it (queued). False: stored only. */
  answerable: boolean
  platformSentAt: Date
}

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
  return db.transaction(async (tx) => {
    const conversation = await upsertConversation(tx, message)

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
        kind: message.kind,
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
  chat: Pick<NormalizedMessage, 'organizationId' | 'channelId' | 'platformChatId'>,
): Promise<{ id: string; paused: boolean; burstWaitSeconds: number }> {
  const [conversation] = await db
    .insert(conversations)
    .values({
      organizationId: chat.organizationId,
      channelId: chat.channelId,
      platformChatId: chat.platformChatId,
    })
    // A no-op update so that the existing row comes back too.
    .onConflictDoUpdate({
      target: [conversations.channelId, conversations.platformChatId],
      set: { platformChatId: sql`excluded.platform_chat_id` },
    })
    .returning({
      id: conversations.id,
      paused: sql<boolean>`${conversations.aiPausedAt} is not null`,
      burstWaitSeconds: burstWaitOf(conversations.channelId),
    })
  return conversation
}

/**
 * pg-boss statements that run inside our transaction (its drizzle adapter). Our Database type is generic over the
 * driver, so `execute` answers `unknown` to the compiler: the shapes the two drivers give are checked instead.
 */
export function jobsIn(tx: Transaction) {
  return fromDrizzle(
    {
      async execute(query: unknown) {
        if (!(query instanceof SQL)) throw new Error('pg-boss passed a query that is not drizzle SQL')
        return { rows: rowsOf(await tx.execute(query)) }
      },
    },
    sql,
  )
}

function senderName(from: TelegramUser | undefined): string | null {
  if (!from) return null
  const full = [from.first_name, from.last_name].filter(Boolean).join(' ')
  return full || from.username || null
}

/** What a Telegram message without text carries, by the field that holds it (Bot API's Message object). */
const TELEGRAM_KINDS: [string, Exclude<MessageKind, 'text'>][] = [
  ['voice', 'voice'],
  ['video_note', 'video'],
  ['photo', 'photo'],
  ['sticker', 'sticker'],
  ['animation', 'video'],
  ['video', 'video'],
  ['audio', 'audio'],
  ['document', 'file'],
  ['location', 'location'],
  ['venue', 'location'],
  ['contact', 'contact'],
]

/**
 * A Telegram update as a NormalizedMessage, or undefined when there is nothing to store: updates other than a
 * new message (edits, channel posts, callbacks, member changes...) and messages from bots. A message without
 * text (a photo, a sticker, a voice note...) is stored with its kind, its label and caption as text, and queued:
 * the agent tells the customer it reads only text.
 */
export function normalizeTelegramUpdate(
  channel: Pick<Channel, 'id' | 'organizationId'>,
  update: TelegramUpdateBody,
): NormalizedMessage | undefined {
  const message = update.message
  if (!message || message.from?.is_bot) return undefined
  const text = message.text?.trim() ? message.text : undefined
  const kind =
    text !== undefined ? 'text' : (TELEGRAM_KINDS.find(([field]) => field in message)?.[1] ?? 'other')
  return {
    organizationId: channel.organizationId,
    channelId: channel.id,
    platformChatId: String(message.chat.id),
    platformMessageId: `${message.chat.id}:${message.message_id}`,
    senderId: message.from ? String(message.from.id) : null,
    senderName: senderName(message.from),
    text: kind === 'text' ? (text ?? '') : unreadableText(kind, message.caption),
    kind,
    answerable: true,
    platformSentAt: new Date(message.date * 1000),
  }
}
