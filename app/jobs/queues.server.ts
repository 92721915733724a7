import { createHash } from 'node:crypto'
import type pg from 'pg'
import { fromPglite, PgBoss, type Clock, type Queue } from 'pg-boss'
import type { DatabaseHandle } from '~/db/client.server'
import { KNOWLEDGE_QUEUE } from '~/services/knowledge/knowledge-queue.server'
import { REPLY_QUEUE } from '~/services/messages/ingest/reply-queue.server'
import type { Logger } from '~/utils/logger.server'
import { replyWakeupsOf, routeReplyWakeups } from './reply-wakeups.server'
import { DEFAULT_CHANNEL_HEALTH_INTERVAL_HOURS } from '~/lib/channels/health'

/**
 * The reply queue. `key_strict_fifo` with the conversation id as `singletonKey`: one job of a conversation at a
 * time, in the order they were sent, and a job waiting for its retry holds back the ones after it; other
 * conversations run meanwhile. `notify` wakes the workers as soon as a job is sent (LISTEN/NOTIFY, also on
 * PGlite). The handler records model and platform failures itself, so a job fails only when the database
 * does: it is retried with a backoff, and the last attempt records the failure instead of failing the job (a
 * failed job would hold its conversation back for good). The heartbeat (pg-boss's shortest, 10 s, refreshed
 * every 5 s) and the supervisor passes of SUPERVISION hand the jobs of a worker that died to another one within
 * about 20 s instead of at the expiry (docs/decisions/021).
 */
export const REPLY_QUEUE_OPTIONS = {
  policy: 'key_strict_fifo',
  notify: true,
  retryLimit: 4,
  retryDelay: 2,
  retryBackoff: true,
  retryDelayMax: 60,
  expireInSeconds: 15 * 60,
  heartbeatSeconds: 10,
} satisfies Omit<Queue, 'name'>

/**
 * Expired sessions are deleted every hour, at minute 23 (UTC), by pg-boss's scheduler: the schedule is a row in
 * pg-boss's schema, and one instance's cron pass a minute sends the job whichever processes run, so any number
 * of web and worker processes purge once. A session is refused as soon as it expires (findSessionUser): the
 * purge only keeps the table from growing.
 */
export const SESSION_PURGE_QUEUE = 'sessions-purge'
export const SESSION_PURGE_CRON = '23 * * * *'
export const SESSION_PURGE_QUEUE_OPTIONS = {
  policy: 'standard',
  notify: true,
  retryLimit: 2,
  retryDelay: 60,
  expireInSeconds: 5 * 60,
} satisfies Omit<Queue, 'name'>

/** Customers' files past their organization's retention period are deleted once a day, at 03:41 UTC (ADR 074). */
export const MEDIA_PURGE_QUEUE = 'media-purge'
export const MEDIA_PURGE_CRON = '41 3 * * *'
export const MEDIA_PURGE_QUEUE_OPTIONS = SESSION_PURGE_QUEUE_OPTIONS

/**
 * The hand-back of paused conversations to the AI: a job per pause, due at its end, and a sweep every minute
 * (jobs/conversation-resume).
 */
export const CONVERSATION_RESUME_QUEUE = 'conversation-resume'
export const CONVERSATION_RESUME_CRON = '* * * * *'
export const CONVERSATION_RESUME_QUEUE_OPTIONS = {
  policy: 'standard',
  notify: true,
  retryLimit: 5,
  retryDelay: 5,
  expireInSeconds: 60,
} satisfies Omit<Queue, 'name'>

/** A scheduled pass over every organization: retried twice a minute apart, given half an hour. */
const SCHEDULED_PASS_OPTIONS = {
  policy: 'standard',
  notify: true,
  retryLimit: 2,
  retryDelay: 60,
  expireInSeconds: 30 * 60,
} satisfies Omit<Queue, 'name'>

/**
 * Channel health (docs/decisions/046): every channel's token asked at its platform every
 * CHANNEL_HEALTH_INTERVAL_HOURS hours (6 by default), at minute 41 (UTC), by pg-boss's scheduler (one pass
 * whichever processes run, as for the session purge).
 */
export const CHANNEL_HEALTH_QUEUE = 'channel-health'
export function channelHealthCron(intervalHours: number): string {
  return intervalHours >= 24 ? '41 0 * * *' : `41 */${intervalHours} * * *`
}
export const CHANNEL_HEALTH_QUEUE_OPTIONS = SCHEDULED_PASS_OPTIONS

/**
 * The dashboard's rollup (services/analytics/rollup, docs/decisions/044) every 5 minutes: the dashboard reads the
 * source tables only after its last run. Its first run writes the whole history: a long expiry for that one.
 */
export const ANALYTICS_ROLLUP_QUEUE = 'analytics-rollup'
export const ANALYTICS_ROLLUP_CRON = '*/5 * * * *'
export const ANALYTICS_ROLLUP_QUEUE_OPTIONS = SCHEDULED_PASS_OPTIONS

/**
 * The knowledge base's processing: a job per source change (docs/decisions/042). Fetching a site may take two
 * minutes; a database failure is retried twice, then the source is marked failed.
 */
export const KNOWLEDGE_QUEUE_OPTIONS = {
  policy: 'standard',
  notify: true,
  retryLimit: 2,
  retryDelay: 10,
  expireInSeconds: 10 * 60,
} satisfies Omit<Queue, 'name'>

/**
 * How often pg-boss looks for jobs whose worker stopped beating (and refreshes its queue statistics): one
 * instance per interval does it, whichever claims the pass. Its default (60 s) would keep a dead worker's
 * conversations waiting for up to a minute and a half.
 */
export const SUPERVISION = { superviseIntervalSeconds: 5, monitorIntervalSeconds: 10 } as const

export type QueueOptions = {
  database: DatabaseHandle
  /** PostgreSQL: pg-boss opens its own small pool on the same database. */
  databaseUrl: string | undefined
  logger: Logger
  /** pg-boss's schema; tests sharing one PostgreSQL database each take their own. Default: pgboss. */
  schema?: string
  /** pg-boss's source of time; tests drive its scheduler with pg-boss's TestClock. Default: the system clock. */
  clock?: Clock
  /** How often the channel health check runs (CHANNEL_HEALTH_INTERVAL_HOURS). */
  channelHealthIntervalHours?: number
}

function createBoss({ database, databaseUrl, schema, clock }: QueueOptions): PgBoss {
  const common = { useListenNotify: true, schedule: true, migrate: true, schema, clock, ...SUPERVISION }
  if (database.pglite) {
    const boss = new PgBoss({ ...common, db: fromPglite(database.pglite), backend: 'pglite' })
    routeReplyWakeups(boss)
    return boss
  }
  if (!databaseUrl) throw new Error('pg-boss needs DATABASE_URL when the database is PostgreSQL')
  const boss = new PgBoss({
    ...common,
    connectionString: databaseUrl,
    max: 4,
    application_name: 'replypilot-jobs',
  })
  prepareRepeatedStatements(boss)
  routeReplyWakeups(boss)
  return boss
}

/** How many different statements of pg-boss's are prepared at most (it runs about a dozen). */
const MAX_PREPARED = 64

/**
 * pg-boss's statements that come again and again (the fetch of the next jobs, completing them, inserting them) as
 * named prepared statements on its PostgreSQL connections, parsed and planned once per connection instead of on
 * every call: the key_strict_fifo fetch, with its values written into the text, took PostgreSQL about 1.2 ms to
 * plan each time, more than running it (docs/decisions/020), once or more for every reply. pg-boss has no option
 * for this: its pool's `executeSql` is wrapped (pg-boss is pinned to one version, ADR 012). Only single
 * statements seen before are prepared (a text with `;` may be several, which the extended protocol refuses), at
 * most MAX_PREPARED of them; the name is the text's hash, so one name always means one text.
 */
function prepareRepeatedStatements(boss: PgBoss) {
  const db = boss.getDb() as {
    executeSql(text: string, values?: unknown[]): Promise<unknown>
    pool?: pg.Pool
  }
  const plain = db.executeSql.bind(db)
  const seen = new Set<string>()
  const names = new Map<string, string>()
  db.executeSql = (text, values) => {
    let name = names.get(text)
    if (!name && db.pool && !text.includes(';') && names.size < MAX_PREPARED) {
      if (!seen.has(text)) {
        if (seen.size >= 1_000) seen.clear() // texts that never come again
        seen.add(text)
      } else {
        name = `pgboss_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`
        names.set(text, name)
        seen.delete(text)
      }
    }
    if (!name || !db.pool) return plain(text, values)
    return db.pool.query({ name, text, values })
  }
}

/**
 * Creates the queue, or brings an existing one's settings up to date (createQueue leaves an existing queue as
 * it is), then makes pg-boss cache it. The cache matters on PGlite: a send inside a transaction looks an uncached
 * queue up through the main connection, which the transaction holds, and waits forever.
 */
async function ensureReplyQueue(boss: PgBoss, logger: Logger) {
  const { policy, ...mutable } = REPLY_QUEUE_OPTIONS
  const existing = await boss.getQueue(REPLY_QUEUE)
  if (!existing) {
    await boss.createQueue(REPLY_QUEUE, REPLY_QUEUE_OPTIONS)
  } else {
    if (existing.policy !== policy) {
      throw new Error(
        `The ${REPLY_QUEUE} queue has policy ${existing.policy}, not ${policy}: pg-boss cannot change it in place`,
      )
    }
    await boss.updateQueue(REPLY_QUEUE, mutable)
  }
  const blocked = await boss.getBlockedKeys(REPLY_QUEUE) // reads the queue through the cache, filling it
  if (blocked.length > 0) {
    logger.warn('conversations held back by a failed reply job', {
      queue: REPLY_QUEUE,
      conversations: blocked,
    })
  }
}

/** A queue without a schedule: created once, its settings brought up to date, cached before the first send. */
async function ensureQueue(boss: PgBoss, name: string, { policy, ...mutable }: Omit<Queue, 'name'>) {
  if (await boss.getQueue(name)) await boss.updateQueue(name, mutable)
  else await boss.createQueue(name, { policy, ...mutable })
  // Reads the queue through pg-boss's cache, filling it (see ensureReplyQueue); the id names no job.
  await boss.getJobById(name, '00000000-0000-0000-0000-000000000000')
}

/** A scheduled queue (created once; its settings brought up to date) and its cron schedule. */
async function ensureScheduledQueue(
  boss: PgBoss,
  name: string,
  { policy, ...mutable }: Omit<Queue, 'name'>,
  cron: string,
) {
  if (await boss.getQueue(name)) await boss.updateQueue(name, mutable)
  else await boss.createQueue(name, { policy, ...mutable })
  await boss.schedule(name, cron, null, { tz: 'UTC' })
}

/**
 * Starts pg-boss on the runtime's database (installing or migrating its schema) with every queue created and
 * cached, ready for sends before the server takes its first request, and its scheduler on (the session purge,
 * the conversations' hand-back, the dashboard's rollup).
 */
export async function startQueues(options: QueueOptions): Promise<PgBoss> {
  const boss = createBoss(options)
  const { logger } = options
  boss.on('error', (error) => logger.error('job queue error', { error }))
  boss.on('warning', (warning) => logger.warn('job queue warning', { warning }))
  await boss.start()
  try {
    await ensureReplyQueue(boss, logger)
    await ensureQueue(boss, KNOWLEDGE_QUEUE, KNOWLEDGE_QUEUE_OPTIONS)
    await ensureScheduledQueue(boss, SESSION_PURGE_QUEUE, SESSION_PURGE_QUEUE_OPTIONS, SESSION_PURGE_CRON)
    await ensureScheduledQueue(boss, MEDIA_PURGE_QUEUE, MEDIA_PURGE_QUEUE_OPTIONS, MEDIA_PURGE_CRON)
    await ensureScheduledQueue(
      boss,
      CONVERSATION_RESUME_QUEUE,
      CONVERSATION_RESUME_QUEUE_OPTIONS,
      CONVERSATION_RESUME_CRON,
    )
    await ensureScheduledQueue(
      boss,
      CHANNEL_HEALTH_QUEUE,
      CHANNEL_HEALTH_QUEUE_OPTIONS,
      channelHealthCron(options.channelHealthIntervalHours ?? DEFAULT_CHANNEL_HEALTH_INTERVAL_HOURS),
    )
    await ensureScheduledQueue(
      boss,
      ANALYTICS_ROLLUP_QUEUE,
      ANALYTICS_ROLLUP_QUEUE_OPTIONS,
      ANALYTICS_ROLLUP_CRON,
    )
  } catch (error) {
    await boss.stop({ graceful: false }).catch(() => undefined)
    throw error
  }
  return boss
}

/** pg-boss's schema unless a test takes its own. */
export const DEFAULT_SCHEMA = 'pgboss'

/**
 * Reads how many reply jobs wait or run (created, retry, active): a COUNT over pg-boss's job table, cheap enough
 * once a second, not once a request (see ReplyQueuePressure). pg-boss's own getQueueStats may serve a count up
 * to a minute old.
 */
export function replyQueueDepthReader(boss: PgBoss, schema = DEFAULT_SCHEMA): () => Promise<number> {
  const text = `select count(*)::int as depth from "${schema.replaceAll('"', '""')}".job where name = $1 and state < 'completed'`
  return async () => {
    const { rows } = await boss.getDb().executeSql(text, [REPLY_QUEUE])
    return Number(rows[0]?.depth ?? 0)
  }
}

/** Lets the jobs in progress finish (up to `timeoutMs`), then stops polling and closes pg-boss's own pool. */
export async function stopQueues(boss: PgBoss, timeoutMs = 8_000): Promise<void> {
  replyWakeupsOf(boss).stop()
  await boss.stop({ graceful: true, timeout: timeoutMs, close: true })
}
