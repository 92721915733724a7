import pg from 'pg'
import type { DatabaseHandle } from '~/db/client.server'
import type { Logger } from '~/utils/logger.server'

/** What a listener is told. */
export type NotificationHandlers = {
  /** The payload of a notification on the channel. */
  notification(payload: string): void
  /** Listening again after the connection was lost (or after a failed start): notifications meanwhile are gone. */
  reconnected(): void
}

export type NotificationListener = { close(): Promise<void> }

export type ListenOptions = {
  channel: string
  /** PostgreSQL's connection string: the listener holds a connection of its own, outside the pool. */
  databaseUrl?: string
  logger: Logger
  /** How the connection is named in pg_stat_activity. */
  applicationName?: string
  /** The wait before reconnecting, doubled after each failure up to `maxMs`. */
  backoff?: { firstMs: number; maxMs: number }
}

const DEFAULT_BACKOFF = { firstMs: 500, maxMs: 30_000 }

/**
 * LISTENs on a channel of the database. On PGlite, through the instance itself (it is the whole database); on
 * PostgreSQL, on one dedicated connection (a pooled one would be handed to queries, and a LISTEN belongs to a
 * session), reconnected with backoff when it drops. Resolves once listening, or once a first attempt on
 * PostgreSQL has failed and the next is scheduled: the caller's `reconnected` says when it is listening after all.
 */
export async function listenForNotifications(
  database: Pick<DatabaseHandle, 'driver' | 'pglite'>,
  options: ListenOptions,
  handlers: NotificationHandlers,
): Promise<NotificationListener> {
  if (database.driver === 'pglite') {
    if (!database.pglite) throw new Error('The PGlite handle has no instance')
    const unlisten = await database.pglite.listen(options.channel, handlers.notification)
    return { close: () => unlisten().catch(() => undefined) }
  }
  if (!options.databaseUrl) throw new Error('Listening on PostgreSQL needs its connection string')
  return listenOnPostgres(options.databaseUrl, options, handlers)
}

async function listenOnPostgres(
  connectionString: string,
  { channel, logger, applicationName = 'replypilot listener', backoff = DEFAULT_BACKOFF }: ListenOptions,
  handlers: NotificationHandlers,
): Promise<NotificationListener> {
  let client: pg.Client | undefined
  let closed = false
  let retry: NodeJS.Timeout | undefined
  let delayMs = backoff.firstMs
  let failed = false

  const scheduleRetry = (error: unknown, what: string) => {
    failed = true
    if (closed) return
    logger.warn(what, { channel, error, retryInMs: delayMs })
    retry = setTimeout(() => void connect(), delayMs)
    retry.unref()
    delayMs = Math.min(delayMs * 2, backoff.maxMs)
  }

  const connect = async () => {
    retry = undefined
    const attempt = new pg.Client({
      connectionString,
      application_name: applicationName,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    })
    let gone = false
    // Whichever comes first after the connection is up (an error, the end) means it is lost; once.
    const lost = (error?: unknown) => {
      if (gone) return
      gone = true
      if (client === attempt) client = undefined
      attempt.end().catch(() => undefined)
      if (!closed)
        scheduleRetry(
          error ?? new Error('connection ended'),
          'database listener lost its connection; reconnecting',
        )
    }
    attempt.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) handlers.notification(message.payload)
    })
    attempt.on('error', lost)
    attempt.on('end', () => lost())
    try {
      await attempt.connect()
      await attempt.query(`LISTEN ${attempt.escapeIdentifier(channel)}`)
    } catch (error) {
      gone = true
      attempt.end().catch(() => undefined)
      scheduleRetry(error, 'database listener could not connect; retrying')
      return
    }
    if (closed || gone) return void attempt.end().catch(() => undefined)
    client = attempt
    delayMs = backoff.firstMs
    if (failed) {
      failed = false
      logger.info('database listener listening again', { channel })
      handlers.reconnected()
    }
  }

  await connect()
  return {
    async close() {
      closed = true
      clearTimeout(retry)
      const current = client
      client = undefined
      await current?.end().catch(() => undefined)
    },
  }
}
