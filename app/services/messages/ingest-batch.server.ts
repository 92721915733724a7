import { sql } from 'drizzle-orm'
import type { PgBoss } from 'pg-boss'
import type { Database } from '~/db/client.server'
import { conversations, messages } from '~/db/schema'
import { ingestInbound, jobsIn, type IngestResult, type NormalizedMessage } from './ingest.server'
import { REPLY_QUEUE, replyJobOptions, type ReplyJobData } from './reply-queue.server'

/** What storing batches needs of pg-boss: `insert` for a batch, `send` for a message alone. */
export type ReplyJobBatches = Pick<PgBoss, 'send' | 'insert'>

/**
 * Many inbound messages stored and enqueued in one transaction (docs/decisions/024): the conversations in one
 * upsert, the messages in one insert, their reply jobs in one pg-boss insert. Each message gets what
 * ingestInbound would have given it: stored now (with its job), or dropped as already stored (also when the same
 * message comes twice in the batch: the first one counts). Messages keep their order (their sequence, their job
 * ids), so a conversation's messages are answered in the order they arrived.
 */
export async function ingestInboundBatch({
  db,
  boss,
  messages: batch,
}: {
  db: Database
  boss: ReplyJobBatches
  messages: NormalizedMessage[]
}): Promise<IngestResult[]> {
  if (batch.length === 0) return []
  return db.transaction(async (tx) => {
    // One row per conversation, in a fixed order: two batches lock shared conversations in the same order.
    const chats = new Map<string, { organizationId: string; channelId: string; platformChatId: string }>()
    for (const m of batch) {
      chats.set(conversationKey(m.channelId, m.platformChatId), {
        organizationId: m.organizationId,
        channelId: m.channelId,
        platformChatId: m.platformChatId,
      })
    }
    const chatRows = [...chats.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, row]) => row)
    const upserted = await tx
      .insert(conversations)
      .values(chatRows)
      // A no-op update so that existing rows come back too.
      .onConflictDoUpdate({
        target: [conversations.channelId, conversations.platformChatId],
        set: { platformChatId: sql`excluded.platform_chat_id` },
      })
      .returning({
        id: conversations.id,
        channelId: conversations.channelId,
        platformChatId: conversations.platformChatId,
      })
    const conversationIds = new Map(
      upserted.map((c) => [conversationKey(c.channelId, c.platformChatId), c.id]),
    )

    const receivedAt = new Date()
    const inserted = await tx
      .insert(messages)
      .values(
        batch.map((m) => ({
          organizationId: m.organizationId,
          channelId: m.channelId,
          conversationId: conversationIds.get(conversationKey(m.channelId, m.platformChatId)) ?? '',
          direction: 'inbound' as const,
          platformMessageId: m.platformMessageId,
          senderId: m.senderId,
          senderName: m.senderName,
          text: m.text,
          status: m.answerable ? ('queued' as const) : ('ignored' as const),
          platformSentAt: m.platformSentAt,
          receivedAt,
        })),
      )
      .onConflictDoNothing({ target: [messages.channelId, messages.direction, messages.platformMessageId] })
      .returning({
        id: messages.id,
        channelId: messages.channelId,
        platformMessageId: messages.platformMessageId,
        conversationId: messages.conversationId,
      })
    const storedNow = new Map(
      inserted.map((row) => [messageKey(row.channelId, row.platformMessageId ?? ''), row]),
    )

    const results: IngestResult[] = []
    const jobs: { id?: string; singletonKey?: string; data: ReplyJobData }[] = []
    for (const m of batch) {
      const key = messageKey(m.channelId, m.platformMessageId)
      const row = storedNow.get(key)
      if (!row) {
        results.push({ stored: false })
        continue
      }
      storedNow.delete(key) // a second copy of the message in this batch is a redelivery
      results.push({ stored: true, messageId: row.id })
      if (m.answerable) jobs.push({ ...replyJobOptions(row.conversationId), data: { messageId: row.id } })
    }
    if (jobs.length > 0) await boss.insert(REPLY_QUEUE, jobs, { db: jobsIn(tx) })
    return results
  })
}

const conversationKey = (channelId: string, chatId: string) => `${channelId}\u0000${chatId}`
const messageKey = (channelId: string, platformMessageId: string) => `${channelId}\u0000${platformMessageId}`

export type Ingest = (message: NormalizedMessage) => Promise<IngestResult>

/**
 * Group commit for the receivers: messages that arrive while earlier ones are being stored wait (never long:
 * one transaction) and go together in the next transaction, at most `maxBatch` at a time and `maxConcurrent`
 * transactions at once. Under light load a message is stored alone, at once; under heavy load one transaction
 * serves tens of requests, which is what lets ingest keep up with the platforms (bench:ingest). When a batch
 * fails, each of its messages is tried alone, so that one bad message fails only its own request.
 */
export function createIngestBatcher({
  db,
  boss,
  maxBatch = 128,
  maxConcurrent = 3,
}: {
  db: Database
  boss: ReplyJobBatches
  maxBatch?: number
  maxConcurrent?: number
}): Ingest {
  type Waiting = {
    message: NormalizedMessage
    resolve: (result: IngestResult) => void
    reject: (error: unknown) => void
  }
  const waiting: Waiting[] = []
  let running = 0
  let scheduled = false

  function schedule() {
    if (scheduled || running >= maxConcurrent || waiting.length === 0) return
    scheduled = true
    // Lets the requests already read in this turn of the event loop join the batch.
    setImmediate(() => {
      scheduled = false
      void flush()
    })
  }

  async function flush() {
    if (running >= maxConcurrent || waiting.length === 0) return
    const taken = waiting.splice(0, maxBatch)
    running += 1
    schedule() // more than one batch waiting: start the next one meanwhile
    try {
      const results = await ingestInboundBatch({ db, boss, messages: taken.map((w) => w.message) })
      taken.forEach((w, i) => w.resolve(results[i]))
    } catch {
      for (const w of taken) {
        ingestInbound({ db, boss, message: w.message }).then(w.resolve, w.reject)
      }
    } finally {
      running -= 1
      schedule()
    }
  }

  return (message) =>
    new Promise<IngestResult>((resolve, reject) => {
      waiting.push({ message, resolve, reject })
      schedule()
    })
}
