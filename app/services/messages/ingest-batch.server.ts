import { sql } from 'drizzle-orm'
import type { PgBoss } from 'pg-boss'
import type { Database } from '~/db/client.server'
import { rowsOf } from '~/db/rows.server'
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
    // Both statements take their rows as one JSON parameter: with 10-100 rows a batch, drizzle's building of a
    // VALUES list (a parameter, and its checks, per cell) was the largest CPU cost of ingest (bench:ingest).
    const upserted = rowsOf<{ id: string; channel_id: string; platform_chat_id: string }>(
      await tx.execute(sql`
        insert into ${conversations} (organization_id, channel_id, platform_chat_id)
        select c."organizationId", c."channelId", c."platformChatId"
        from rows from (
          jsonb_to_recordset(${JSON.stringify(chatRows)}::jsonb)
            as ("organizationId" uuid, "channelId" uuid, "platformChatId" text)
        ) with ordinality as c("organizationId", "channelId", "platformChatId", ord)
        order by c.ord
        -- A no-op update so that existing rows come back too.
        on conflict (channel_id, platform_chat_id) do update set platform_chat_id = excluded.platform_chat_id
        returning id, channel_id, platform_chat_id`),
    )
    const conversationIds = new Map(
      upserted.map((c) => [conversationKey(c.channel_id, c.platform_chat_id), c.id]),
    )

    const rows = batch.map((m) => ({
      organizationId: m.organizationId,
      channelId: m.channelId,
      conversationId: conversationIds.get(conversationKey(m.channelId, m.platformChatId)),
      platformMessageId: m.platformMessageId,
      senderId: m.senderId,
      senderName: m.senderName,
      text: m.text,
      status: m.answerable ? 'queued' : 'ignored',
      platformSentAt: m.platformSentAt?.toISOString() ?? null,
    }))
    // Inserted in arrival order (ordinality), so `sequence` keeps the order of the batch.
    const inserted = rowsOf<{
      id: string
      channel_id: string
      platform_message_id: string | null
      conversation_id: string
    }>(
      await tx.execute(sql`
        insert into ${messages} (organization_id, channel_id, conversation_id, direction, platform_message_id,
          sender_id, sender_name, text, status, platform_sent_at, received_at)
        select m."organizationId", m."channelId", m."conversationId", 'inbound', m."platformMessageId",
          m."senderId", m."senderName", m.text, m.status, m."platformSentAt", now()
        from rows from (
          jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            as ("organizationId" uuid, "channelId" uuid, "conversationId" uuid, "platformMessageId" text,
              "senderId" text, "senderName" text, text text, status text, "platformSentAt" timestamptz)
        ) with ordinality as m("organizationId", "channelId", "conversationId", "platformMessageId", "senderId",
          "senderName", text, status, "platformSentAt", ord)
        order by m.ord
        on conflict (channel_id, direction, platform_message_id) do nothing
        returning id, channel_id, platform_message_id, conversation_id`),
    )
    const storedNow = new Map(
      inserted.map((row) => [messageKey(row.channel_id, row.platform_message_id ?? ''), row]),
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
      if (m.answerable) jobs.push({ ...replyJobOptions(row.conversation_id), data: { messageId: row.id } })
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
  onBatchFailure,
}: {
  db: Database
  boss: ReplyJobBatches
  maxBatch?: number
  maxConcurrent?: number
  /** Told when a batch fails and its messages are tried one by one (a log line: it should be rare). */
  onBatchFailure?: (error: unknown, size: number) => void
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
    } catch (error) {
      onBatchFailure?.(error, taken.length)
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
