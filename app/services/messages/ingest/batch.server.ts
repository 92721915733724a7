import { sql } from 'drizzle-orm'
import type { PgBoss } from 'pg-boss'
import type { Database } from '~/db/client.server'
import { prepareSql } from '~/db/prepared.server'
import { detectLanguages } from '~/integrations/language/detect.server'
import { rowsOf } from '~/db/rows.server'
import { conversations, messages } from '~/db/schema'
import { REPLY_FAILURES } from '~/lib/conversations/reply-pipeline'
import { jobChannelOf, jobInsertSql, jobNowSql, jobTableOf, type JobTable } from '~/db/jobs.server'
import { burstWaitOf, ingestInbound, type IngestResult, type NormalizedMessage } from './ingest.server'
import { nextJobId, REPLY_QUEUE, replyWakeupsSql, type ReplyQueue } from './reply-queue.server'

/** Where pg-boss keeps the reply queue's jobs (read once at start). */
export type ReplyJobTable = JobTable

/** The reply queue's table, from pg-boss's own record of the queue. */
export const replyJobTable = (boss: Pick<PgBoss, 'getQueue'>, schema: string) =>
  jobTableOf(boss, schema, REPLY_QUEUE)

const batchStatements = new WeakMap<Database, Map<string, ReturnType<typeof prepareSql>>>()

/** The batch's statement for this database and job table, prepared once (PostgreSQL planned it in 0.9 ms). */
function batchStatementFor(db: Database, jobs: ReplyJobTable) {
  const key = `${jobs.schema}.${jobs.table}`
  let statements = batchStatements.get(db)
  if (!statements) batchStatements.set(db, (statements = new Map()))
  let statement = statements.get(key)
  if (!statement) {
    statement = prepareSql(db, `ingest_batch:${key}`, ingestBatchQuery(jobs))
    statements.set(key, statement)
  }
  return statement
}

/** The batch's statement, its values as placeholders (rows, chats, pausedReason). Exported for its plan's test. */
export function ingestBatchQuery(jobs: ReplyJobTable) {
  return sql`
      with input as (
        select * from rows from (
          jsonb_to_recordset(${sql.placeholder('rows')}::jsonb)
            as ("organizationId" uuid, "channelId" uuid, "platformChatId" text, "platformMessageId" text,
              "senderId" text, "senderName" text, "senderHandle" text, "senderLanguage" text, text text,
              kind text, status text, "platformSentAt" timestamptz, "jobId" uuid, language text, greeting boolean,
              media jsonb)
        ) with ordinality as m("organizationId", "channelId", "platformChatId", "platformMessageId", "senderId",
          "senderName", "senderHandle", "senderLanguage", text, kind, status, "platformSentAt", "jobId", language,
          greeting, media, ord)
      ),
      -- Each conversation's summary after this batch's new messages (redeliveries left out), written by its upsert
      -- so that the row gets one new version, not a second one from the summary trigger, which then finds it up to
      -- date (docs/decisions/040). Built as the trigger builds it: keep the two in step. The search's words are the
      -- trigger's to write, for every insert of messages (docs/decisions/077).
      summary as (
        select f."channelId", f."platformChatId",
          (array_agg(left(f.text, 200) order by f.ord desc))[1] as text,
          max(coalesce(f."platformSentAt", now())) as "inboundAt",
          (array_agg(f."senderName" order by f.ord desc) filter (where f."senderName" is not null))[1]
            as "senderName",
          (array_agg(f."senderHandle" order by f.ord desc) filter (where f."senderHandle" is not null))[1]
            as "senderHandle",
          (array_agg(f."senderLanguage" order by f.ord desc) filter (where f."senderLanguage" is not null))[1]
            as "senderLanguage",
          -- The language a sentence told last; else the first a greeting alone told, which names the conversation's
          -- only when it has none (detect.server.ts's conversationLanguage).
          (array_agg(f.language order by f.ord desc) filter (where f.language is not null and not f.greeting))[1]
            as language,
          (array_agg(f.language order by f.ord) filter (where f.language is not null and f.greeting))[1]
            as "greetedIn"
        from (
          select distinct on ("channelId", "platformMessageId") *, 'inbound'::text as direction
          from input order by "channelId", "platformMessageId", ord
        ) f
        -- Not stored yet. A scalar subquery, so one probe of the unique key per message whatever the statistics
        -- say (as NOT EXISTS it became a join that read every message while the table looked empty). The direction
        -- comes from f, not as a constant, so that no index partial on direction = 'inbound' can serve the probe:
        -- planned while the table looked empty, the analytics index (organization, time) was chosen and each probe
        -- read every inbound message (bench:ingest fell to a third of its baseline).
        where (
          select true from ${messages} s
          where s.channel_id = f."channelId" and s.direction = f.direction
            and s.platform_message_id = f."platformMessageId"
        ) is null
        group by f."channelId", f."platformChatId"
      ),
      conv as (
        insert into ${conversations} (organization_id, channel_id, platform_chat_id, last_message_text,
          last_message_direction, last_inbound_at, customer_name, customer_handle, customer_language, language)
        select c."organizationId", c."channelId", c."platformChatId", s.text,
          case when s."channelId" is not null then 'inbound' end, s."inboundAt", s."senderName", s."senderHandle",
          s."senderLanguage", coalesce(s.language, case when s."greetedIn" is not null then coalesce(
            (select o.language from ${conversations} o
              where o.channel_id = c."channelId" and o.platform_chat_id = c."platformChatId"),
            s."greetedIn") end)
        from rows from (
          jsonb_to_recordset(${sql.placeholder('chats')}::jsonb)
            as ("organizationId" uuid, "channelId" uuid, "platformChatId" text)
        ) with ordinality as c("organizationId", "channelId", "platformChatId", ord)
        left join summary s on s."channelId" = c."channelId" and s."platformChatId" = c."platformChatId"
        order by c.ord
        -- Without a new message (only redeliveries): a no-op update, so that the existing row comes back too.
        on conflict (channel_id, platform_chat_id) do update set
          last_message_at = case when excluded.last_message_direction is null
            then ${conversations.lastMessageAt} else excluded.last_message_at end,
          last_message_text = case when excluded.last_message_direction is null
            then ${conversations.lastMessageText} else excluded.last_message_text end,
          last_message_direction = coalesce(excluded.last_message_direction, ${conversations.lastMessageDirection}),
          last_inbound_at = greatest(${conversations.lastInboundAt}, excluded.last_inbound_at),
          customer_name = coalesce(excluded.customer_name, ${conversations.customerName}),
          customer_handle = coalesce(excluded.customer_handle, ${conversations.customerHandle}),
          customer_language = coalesce(excluded.customer_language, ${conversations.customerLanguage}),
          language = coalesce(excluded.language, ${conversations.language}),
          -- The customer wrote: a resolved conversation is open again (the summary trigger does it elsewhere).
          status = case when excluded.last_inbound_at is null then ${conversations.status} else 'open' end
        returning id, channel_id, platform_chat_id, ai_paused_at is not null as paused,
          ${burstWaitOf(sql`channel_id`)} as burst_wait
      ),
      msg as (
        insert into ${messages} (organization_id, channel_id, conversation_id, direction, platform_message_id,
          sender_id, sender_name, text, language, kind, media, status, failure_reason, platform_sent_at, received_at)
        -- While a person answers the conversation, its messages are stored but not queued for the AI.
        select m."organizationId", m."channelId", c.id, 'inbound', m."platformMessageId", m."senderId",
          m."senderName", m.text, m.language, m.kind, m.media,
          case when c.paused and m.status = 'queued' then 'received' else m.status end,
          case when c.paused and m.status = 'queued' then ${sql.placeholder('pausedReason')} end,
          m."platformSentAt", now()
        from input m
        join conv c on c.channel_id = m."channelId" and c.platform_chat_id = m."platformChatId"
        order by m.ord
        on conflict (channel_id, direction, platform_message_id) do nothing
        returning id, channel_id, platform_message_id, conversation_id, status
      ),
      burst_waits as (select distinct on (channel_id) channel_id, burst_wait from conv),
      -- The first copy of each message in the batch: the one that was stored, when one was.
      first as (
        select distinct on ("channelId", "platformMessageId") *
        from input order by "channelId", "platformMessageId", ord
      ),
      -- The queued messages' reply jobs, with ids taken in arrival order, and the workers told when each is due.
      ins as (${jobInsertSql(
        jobs,
        sql`select f."jobId" as id, jsonb_build_object('messageId', msg.id) as data,
          msg.conversation_id::text as singleton_key,
          ${sql.raw(jobNowSql(jobs.schema))} + w.burst_wait * interval '1 second' as start_after
        from msg join first f on f."channelId" = msg.channel_id and f."platformMessageId" = msg.platform_message_id
        join burst_waits w on w.channel_id = msg.channel_id
        where msg.status = 'queued'`,
      )}),
      notified as (${sql.raw(replyWakeupsSql(jobChannelOf(jobs.schema), 'ins', jobNowSql(jobs.schema)))})
      select id, channel_id, platform_message_id, conversation_id from msg
      where (select count(*) from notified) >= 0`
}

/**
 * Many inbound messages stored and enqueued in one statement, so in one round trip and atomically
 * (docs/decisions/024 and 027): the conversations upserted, the messages inserted (in arrival order: `sequence`
 * keeps the order of the batch; a paused conversation's are stored as left to a person, ADR 036), and a reply
 * job for each answerable message stored now, with pg-boss's own
 * insert (ids taken in arrival order, so a conversation's jobs keep their order; workers notified). Each message
 * gets what ingestInbound would have given it: stored now (with its job), or dropped as already stored (also when
 * the same message comes twice in the batch: the first one counts).
 */
export async function ingestInboundBatch({
  db,
  jobs,
  messages: batch,
}: {
  db: Database
  jobs: ReplyJobTable
  messages: NormalizedMessage[]
}): Promise<IngestResult[]> {
  if (batch.length === 0) return []
  // One row per conversation, in a fixed order: two batches lock shared conversations in the same order.
  const chats = new Map<string, { organizationId: string; channelId: string; platformChatId: string }>()
  for (const m of batch) {
    chats.set(conversationKey(m.channelId, m.platformChatId), {
      organizationId: m.organizationId,
      channelId: m.channelId,
      platformChatId: m.platformChatId,
    })
  }
  const chatRows = [...chats.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row)
  const languages = await detectLanguages(batch)
  // The job ids are taken now, in arrival order (UUIDv7, see nextJobId); a message not stored gets no job.
  const rows = batch.map((m, i) => ({
    organizationId: m.organizationId,
    channelId: m.channelId,
    platformChatId: m.platformChatId,
    platformMessageId: m.platformMessageId,
    senderId: m.senderId,
    senderName: m.senderName,
    senderHandle: m.senderHandle ?? null,
    senderLanguage: m.senderLanguage ?? null,
    text: m.text,
    kind: m.kind,
    status: m.answerable ? 'queued' : 'ignored',
    platformSentAt: m.platformSentAt?.toISOString() ?? null,
    jobId: m.answerable ? nextJobId() : null,
    language: languages[i].language,
    greeting: languages[i].greeting,
    media: m.media ?? null,
  }))
  // Rows go in as JSON parameters: with 10-100 rows a batch, drizzle's building of a VALUES list (a parameter,
  // and its checks, per cell) was the largest CPU cost of ingest (bench:ingest, ADR 024).
  const inserted = rowsOf<{
    id: string
    channel_id: string
    platform_message_id: string | null
    conversation_id: string
  }>(
    await batchStatementFor(
      db,
      jobs,
    )({
      chats: JSON.stringify(chatRows),
      rows: JSON.stringify(rows),
      pausedReason: REPLY_FAILURES.aiPaused,
    }),
  )
  const storedNow = new Map(
    inserted.map((row) => [messageKey(row.channel_id, row.platform_message_id ?? ''), row]),
  )
  return batch.map((m) => {
    const key = messageKey(m.channelId, m.platformMessageId)
    const row = storedNow.get(key)
    if (!row) return { stored: false }
    storedNow.delete(key) // a second copy of the message in this batch is a redelivery
    return { stored: true, messageId: row.id }
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
  jobs,
  maxBatch = 128,
  maxConcurrent = 3,
  onBatchFailure,
}: {
  db: Database
  boss: ReplyQueue
  jobs: ReplyJobTable
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
      const results = await ingestInboundBatch({ db, jobs, messages: taken.map((w) => w.message) })
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
