import type { PgBoss } from 'pg-boss'
import { openDatabase, type DatabaseHandle } from '~/db/client.server'
import { listenForNotifications } from '~/db/listen.server'
import { createFirebaseIdentity, type FirebaseIdentity } from '~/integrations/firebase/identity.server'
import { createModelClient, type ModelClient } from '~/integrations/llm/model.server'
import { createEmbeddingClient } from '~/integrations/llm/embeddings.server'
import { createTranscriber } from '~/integrations/llm/transcription.server'
import { createPhotoReader } from '~/integrations/llm/vision.server'
import type { KnowledgeEmbeddings } from '~/services/knowledge/embeddings.server'
import { createGraphClient, type GraphClient } from '~/integrations/meta/graph.server'
import { createTelegramClient, type TelegramClient } from '~/integrations/telegram/bot-api.server'
import { DEFAULT_SCHEMA, replyQueueDepthReader, startQueues, stopQueues } from '~/jobs/queues.server'
import { startJobWorkers } from '~/jobs/workers.server'
import {
  NOTIFICATION_EVENTS_CHANNEL,
  startNotificationWorker,
  type NotificationWorker,
} from '~/jobs/notifications.server'
import { createSmtpMailer } from '~/integrations/email/mailer.server'
import { createPushSender } from '~/integrations/push/web-push.server'
import { startTelegramPolling, type TelegramPolling } from '~/workers/telegram-polling.server'
import { createIngestBatcher, replyJobTable, type Ingest } from '~/services/messages/ingest/batch.server'
import { announcingReplyQueue, type ReplyQueue } from '~/services/messages/ingest/reply-queue.server'
import { createWebhookChannels, type WebhookChannels } from '~/services/messages/inbound/channels.server'
import {
  createReplyQueuePressure,
  type ReplyQueuePressure,
} from '~/services/messages/ingest/queue-pressure.server'
import {
  createInboxEvents,
  INBOX_EVENTS_CHANNEL,
  type InboxEvents,
} from '~/services/conversations/inbox-events.server'
import { getConfig, type Config } from '~/runtime/config.server'
import { warmLanguageDetection } from '~/integrations/language/detect.server'
import { knowledgeJobsOf, type KnowledgeJobs } from '~/services/knowledge/knowledge-queue.server'
import { getLogger, type Logger } from '~/utils/logger.server'
import { getMetrics } from '~/utils/metrics.server'

/** Everything a request or a job needs from the process: built once, shared by every module instance. */
export type Runtime = {
  config: Config
  database: DatabaseHandle
  identity: FirebaseIdentity
  models: ModelClient
  /** The knowledge's embedding model (LLM_EMBEDDING_MODEL); undefined: keyword search only (docs/decisions/043). */
  embeddings?: KnowledgeEmbeddings
  telegram: TelegramClient
  /** Meta's Graph API (Messenger, WhatsApp); see `config.meta.configured` before connecting anything. */
  graph: GraphClient
  logger: Logger
  /** pg-boss, started, with every queue created and cached: ready for sends. */
  boss: PgBoss
  /** Stores and enqueues the receivers' messages, many to a transaction under load (group commit). */
  ingest: Ingest
  /** The receivers' channel lookups, one query for those of a turn of the event loop. */
  webhookChannels: WebhookChannels
  /** The reply queue's depth against REPLY_QUEUE_HIGH_WATER, for receivers and /metrics. */
  replyQueue: ReplyQueuePressure
  /** Whether this process works the reply queue. */
  worker: boolean
  /** Long polling of Telegram bots, in a worker when there is no public URL for webhooks. */
  telegramPolling?: TelegramPolling
  /** Tells members when a person is needed (docs/decisions/068), in a process that works the queues. */
  notifications?: NotificationWorker
  /** The inbox's live updates: listens to the database from the first subscriber on (docs/decisions/037). */
  inboxEvents: InboxEvents
  /** Sends a knowledge source's processing job inside the transaction that stored it. */
  knowledgeJobs: KnowledgeJobs
}

export type RuntimeOptions = {
  /**
   * Work the reply queue in this process. Default: the configuration's WORKER_IN_PROCESS (on unless set to
   * false); `npm run worker` asks for it explicitly.
   */
  worker?: boolean
  /** pg-boss's schema (default pgboss); tests sharing one PostgreSQL database each take their own. */
  queueSchema?: string
  /** A new PGlite database's starting data directory (see DatabaseOptions): tests skip PGlite's initdb with it. */
  pgliteDataDir?: Blob
}

declare global {
  // Survives the dev server re-importing modules; only `var` reaches globalThis.
  var __replypilotRuntime: Promise<Runtime> | undefined
}

async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const config = getConfig()
  const logger = getLogger(config.logLevel)
  const started = performance.now()
  // Meanwhile: the first customer message then need not wait for it.
  warmLanguageDetection()
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    migrationsFolder: config.migrationsDir,
    pgliteDataDir: options.pgliteDataDir,
    onPoolError: (error) =>
      logger.warn('an idle database connection was lost; the pool opens another', { reason: error.message }),
  })
  const databaseMs = Math.round(performance.now() - started)
  const { identity, models, embeddings, telegram, graph } = clientsOf(config, logger)
  const { boss, jobs, replies, replyQueue } = await queuesOf(database, config, logger, options)
  const queuesMs = Math.round(performance.now() - started) - databaseMs
  const worker = options.worker ?? config.workerInProcess
  const { telegramPolling, notifications } = worker
    ? await startWorkers({
        config,
        database,
        boss,
        replies,
        logger,
        clients: { models, embeddings, telegram, graph },
      })
    : { telegramPolling: undefined, notifications: undefined }
  if (!worker && database.driver === 'pglite') {
    logger.warn('WORKER_IN_PROCESS=false on the embedded database: no process will answer messages', {
      hint: 'PGlite can be opened by one process only; set DATABASE_URL to run workers apart',
    })
  }
  logger.info('runtime ready', {
    database: database.driver,
    authEmulator: config.firebase.emulatorHost ?? null,
    modelProvider: models.provider,
    embeddingModel: embeddings?.client.model ?? null,
    transcriptionModel: config.llm.transcription?.model ?? null,
    visionModel: config.llm.vision?.model ?? null,
    worker,
    telegramUpdates: config.telegramUpdates,
    databaseMs,
    queuesMs,
  })
  return {
    config,
    database,
    identity,
    models,
    embeddings,
    telegram,
    graph,
    logger,
    boss,
    ingest: createIngestBatcher({
      db: database.db,
      boss: replies,
      jobs,
      onBatchFailure: (error, size) =>
        logger.warn('ingest batch failed: storing its messages one by one', { error, size }),
    }),
    webhookChannels: createWebhookChannels(database.db),
    knowledgeJobs: knowledgeJobsOf(boss),
    replyQueue,
    worker,
    telegramPolling,
    notifications,
    inboxEvents: inboxEventsOf(database, config, logger),
  }
}

/** pg-boss started on the database, the reply queue's table, and its back-pressure watched. */
async function queuesOf(database: DatabaseHandle, config: Config, logger: Logger, options: RuntimeOptions) {
  let boss: PgBoss
  try {
    boss = await startQueues({
      database,
      databaseUrl: config.databaseUrl,
      logger,
      schema: options.queueSchema,
      channelHealthIntervalHours: config.channelHealthIntervalHours,
    })
  } catch (error) {
    await database.close().catch(() => undefined)
    throw error
  }
  const jobs = await replyJobTable(boss, options.queueSchema ?? DEFAULT_SCHEMA)
  // Messages stored one by one (long polling, a failed batch's fallback) announce their burst wait too.
  const replies = announcingReplyQueue(boss, jobs.schema)
  const replyQueue = createReplyQueuePressure({
    readDepth: replyQueueDepthReader(boss, options.queueSchema),
    highWater: config.replyQueueHighWater,
    logger: logger.child({ component: 'reply-queue' }),
  })
  getMetrics().watchReplyQueue({ depth: replyQueue.read, highWater: replyQueue.highWater })
  return { boss, jobs, replies, replyQueue }
}

/** The inbox's live updates, over the database's notifications. */
function inboxEventsOf(database: DatabaseHandle, config: Config, logger: Logger) {
  const inboxLogger = logger.child({ component: 'inbox-events' })
  return createInboxEvents({
    listen: (handlers) =>
      listenForNotifications(
        database,
        {
          channel: INBOX_EVENTS_CHANNEL,
          databaseUrl: config.databaseUrl,
          logger: inboxLogger,
          applicationName: 'replypilot inbox events',
        },
        handlers,
      ),
    logger: inboxLogger,
  })
}

/** The clients of the platforms and models this process talks to. */
function clientsOf(config: Config, logger: Logger) {
  const identity = createFirebaseIdentity(config.firebase)
  const models = createModelClient(config.llm)
  const embeddings: KnowledgeEmbeddings | undefined = config.llm.embedding && {
    client: createEmbeddingClient(config.llm.embedding),
    minSimilarity: config.llm.embedding.minSimilarity,
    logger: logger.child({ component: 'knowledge-embeddings' }),
  }
  const telegram = createTelegramClient({ apiRoot: config.telegramApiRoot })
  const graph = createGraphClient({
    graphRoot: config.meta.graphRoot,
    version: config.meta.graphVersion,
    appId: config.meta.appId,
    appSecret: config.meta.appSecret,
  })
  return { identity, models, embeddings, telegram, graph }
}

/** This process works the queues (replies, knowledge, health) and, without webhooks, polls Telegram. */
async function startWorkers({
  config,
  database,
  boss,
  replies,
  logger,
  clients: { models, embeddings, telegram, graph },
}: {
  config: Config
  database: DatabaseHandle
  boss: PgBoss
  replies: ReplyQueue
  logger: Logger
  clients: Omit<ReturnType<typeof clientsOf>, 'identity'>
}): Promise<{ telegramPolling?: TelegramPolling; notifications: NotificationWorker }> {
  const deps = {
    db: database.db,
    models,
    embeddings,
    telegram,
    graph,
    encryptionKey: config.encryptionKey,
    conversationWindow: config.conversationWindow,
    media: (config.llm.transcription || config.llm.vision) && {
      transcriber: config.llm.transcription && createTranscriber(config.llm.transcription),
      vision: config.llm.vision && createPhotoReader(config.llm.vision),
      telegram,
      graph,
      allowPrivateHosts: config.knowledge.allowPrivateFetch,
    },
    logger: logger.child({ component: 'reply-worker' }),
    web: { allowPrivateHosts: config.knowledge.allowPrivateFetch },
    health: { telegram, graph, meta: config.meta },
  }
  await startJobWorkers(boss, deps, { concurrency: config.replyWorkerConcurrency })
  const notifications = await notificationWorkerOf(database, config, logger, telegram)
  if (config.telegramUpdates !== 'polling') return { notifications }
  const telegramPolling = await startTelegramPolling({
    db: database.db,
    boss: replies,
    telegram,
    encryptionKey: config.encryptionKey,
    logger,
  })
  return { telegramPolling, notifications }
}

/** The notifications' worker, woken by the database's triggers; email through SMTP_URL when it is set. */
function notificationWorkerOf(
  database: DatabaseHandle,
  config: Config,
  logger: Logger,
  telegram: TelegramClient,
) {
  const notificationLogger = logger.child({ component: 'notifications' })
  return startNotificationWorker({
    db: database.db,
    mailer: config.email && createSmtpMailer(config.email),
    push:
      config.push &&
      createPushSender({ vapid: config.push, allowPrivateHosts: config.knowledge.allowPrivateFetch }),
    telegram: { client: telegram, encryptionKey: config.encryptionKey },
    appUrl: config.publicUrl,
    logger: notificationLogger,
    listen: (handlers) =>
      listenForNotifications(
        database,
        {
          channel: NOTIFICATION_EVENTS_CHANNEL,
          databaseUrl: config.databaseUrl,
          logger: notificationLogger,
          applicationName: 'replypilot notifications',
        },
        { notification: () => handlers.notification(), reconnected: handlers.reconnected },
      ),
  })
}

/** The process's runtime, created on first use (the server entry awaits it before listening). */
export function getRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  globalThis.__replypilotRuntime ??= createRuntime(options).catch((error: unknown) => {
    globalThis.__replypilotRuntime = undefined
    throw error
  })
  return globalThis.__replypilotRuntime
}

/**
 * Ends the inbox's event streams and its database listener, stops Telegram long polling (the polls are aborted,
 * their leases given up), then the job queue (current replies finish, up to 8 s), then closes the database.
 */
export async function closeRuntime(): Promise<void> {
  const pending = globalThis.__replypilotRuntime
  globalThis.__replypilotRuntime = undefined
  if (!pending) return
  const runtime = await pending
  try {
    await runtime.inboxEvents.close()
    await runtime.telegramPolling?.stop()
    await runtime.notifications?.stop()
    await stopQueues(runtime.boss)
  } finally {
    await runtime.database.close()
  }
}
