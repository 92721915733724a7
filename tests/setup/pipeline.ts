import type { AgentBehaviour } from '~/lib/agents/behaviour'
import { randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import type { PgBoss } from 'pg-boss'
import { replyJobTable, type ReplyJobTable } from '~/services/messages/ingest/batch.server'
import type { Database, DatabaseHandle } from '~/db/client.server'
import { messages, type Message } from '~/db/schema'
import { createModelClient } from '~/integrations/llm/model.server'
import { createTranscriber } from '~/integrations/llm/transcription.server'
import { createPhotoReader } from '~/integrations/llm/vision.server'
import { createGraphClient } from '~/integrations/meta/graph.server'
import { createTelegramClient } from '~/integrations/telegram/bot-api.server'
import { startQueues, stopQueues } from '~/jobs/queues.server'
import { startReplyWorker, type ReplyWorkerDeps } from '~/jobs/reply.server'
import { DEFAULT_REPLY_WORKER_CONCURRENCY } from '~/lib/conversations/reply-pipeline'
import { assignAgent } from '~/services/channels/channels.server'
import type { PlatformDeps } from '~/services/channels/platform-deps.server'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import type { TelegramUpdates } from '~/lib/channels/channels'
import { createLogger } from '~/utils/logger.server'
import { telegramTextUpdate } from '../fixtures/telegram'
import { startGraphFake, type GraphFake } from '../fakes/graph-server'
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai-server'
import { startTelegramFake, type TelegramFake } from '../fakes/telegram-server'
import { newQueueSchema, openTestDatabase } from './database'
import { testMetaConfig } from './meta'
import { newOwnerScope } from './scope'
import { connectTestBot, insertTestMetaChannel, newTestAgent } from './tenant'

/**
 * The reply pipeline for service tests: a test database, pg-boss on it in a schema of its own (test files share
 * one PostgreSQL database and must not work each other's jobs), the Telegram and model fakes over HTTP, and
 * optionally this process's reply worker. The backoff is shortened; a platform's own retry_after is not.
 */
export type Pipeline = {
  handle: DatabaseHandle
  db: Database
  boss: PgBoss
  /** The reply queue's table, for storing batches (ingestInboundBatch). */
  jobs: ReplyJobTable
  telegram: TelegramFake
  model: OpenAiFake
  /** Meta's Graph API (Messenger and WhatsApp sends), for the app `META_TEST_APP`. */
  graph: GraphFake
  deps: ReplyWorkerDeps
  /** What the channel services need (connect, webhook, delete). */
  channelDeps: PlatformDeps
  publicUrl: string
  logs: string[]
  /**
   * A tenant with a connected Telegram bot, its subscription on (with webhooks, its secret known; with long
   * polling, no secret) and, unless `agent: false`, an agent.
   */
  newBot(options?: {
    agent?: boolean
    agentEnabled?: boolean
    systemPrompt?: string
    /** The agent's behaviour (issue #17); by default it answers each message at once. */
    behaviour?: Partial<AgentBehaviour>
  }): Promise<TestBot>
  /** A tenant with a connected Facebook page or WhatsApp number (its token known to the Graph fake) and an agent. */
  newMetaChannel(
    platform: 'facebook' | 'whatsapp',
    options?: { agent?: boolean; behaviour?: Partial<AgentBehaviour> },
  ): Promise<TestMetaChannel>
  close(): Promise<void>
}

export type TestBot = {
  scope: OrganizationScope
  token: string
  channelId: string
  agentId?: string
  secret: string
}

export type TestMetaChannel = {
  scope: OrganizationScope
  channelId: string
  /** The page id or the phone number id: what Meta's deliveries name. */
  platformChannelId: string
  token: string
  agentId?: string
}

/** The Meta app of the pipeline tests: the fake checks its id and secret, receivers verify signatures with it. */
export const META_TEST_APP = { appId: '9876543210', appSecret: 'pipeline-meta-secret' }

export async function startPipeline(
  options: {
    worker?: boolean
    publicUrl?: string
    telegramUpdates?: TelegramUpdates
    /**
     * Voice notes are transcribed and photos described by the model fake (LLM_TRANSCRIPTION_MODEL and
     * LLM_VISION_MODEL set), ADR 074.
     */
    media?: boolean
  } = {},
): Promise<Pipeline> {
  const [handle, telegram, model, graph] = await Promise.all([
    openTestDatabase(),
    startTelegramFake(),
    startOpenAiFake(),
    startGraphFake(META_TEST_APP),
  ])
  const logs: string[] = []
  const logger = createLogger({ level: 'debug', sink: (line) => logs.push(line) })
  const schema = newQueueSchema()
  const boss = await startQueues({ database: handle, databaseUrl: process.env.DATABASE_URL, logger, schema })
  const jobs = await replyJobTable(boss, schema)
  const encryptionKey = randomBytes(32).toString('hex')
  const telegramClient = createTelegramClient({ apiRoot: telegram.apiRoot })
  const graphClient = createGraphClient({ graphRoot: graph.graphRoot, version: 'v23.0', ...META_TEST_APP })
  const deps: ReplyWorkerDeps = {
    db: handle.db,
    models: createModelClient({
      openaiCompatible: { baseUrl: model.url, apiKey: 'sk-test' },
      models: {},
      timeoutMs: 10_000,
    }),
    telegram: telegramClient,
    graph: graphClient,
    encryptionKey,
    conversationWindow: 20,
    logger,
    retry: { baseDelayMs: 20, maxDelayMs: 80 },
    ...(options.media && {
      media: {
        vision: createPhotoReader({
          baseUrl: model.url,
          apiKey: 'sk-test',
          model: 'gpt-4o-mini',
          timeoutMs: 10_000,
        }),
        transcriber: createTranscriber({
          baseUrl: model.url,
          apiKey: 'sk-test',
          model: 'whisper-1',
          timeoutMs: 10_000,
        }),
        telegram: telegramClient,
        graph: graphClient,
        allowPrivateHosts: true,
      },
    }),
  }
  if (options.worker !== false) {
    await startReplyWorker(boss, deps, { concurrency: DEFAULT_REPLY_WORKER_CONCURRENCY[handle.driver] })
  }
  const publicUrl = options.publicUrl ?? 'https://replypilot.example.com'
  // Webhooks unless asked: newBot's channels then have their secret, and the fake delivers to them.
  const telegramUpdates = options.telegramUpdates ?? 'webhook'
  const channelDeps: PlatformDeps = {
    publicUrl,
    encryptionKey,
    telegramUpdates,
    telegram: telegramClient,
    graph: graphClient,
    meta: testMetaConfig(graph.graphRoot, META_TEST_APP),
  }

  const helper = (
    scope: OrganizationScope,
    systemPrompt = 'You are a helpful assistant.',
    behaviour: Partial<AgentBehaviour> = {},
  ) => newTestAgent(scope, { name: 'Helper', creativityLevel: 0.2, systemPrompt, ...behaviour })

  let bots = 0
  async function newBot({
    agent = true,
    agentEnabled = true,
    systemPrompt,
    behaviour,
  }: {
    agent?: boolean
    agentEnabled?: boolean
    systemPrompt?: string
    behaviour?: Partial<AgentBehaviour>
  } = {}) {
    const scope = await newOwnerScope(handle.db)
    const bot = await connectTestBot(scope, telegram, channelDeps, { username: `pipeline_${++bots}_bot` })
    const { token, channelId, secret } = bot
    if (!agent) return { scope, token, channelId, secret }
    const created = await helper(scope, systemPrompt, behaviour)
    await assignAgent(scope, channelId, { agentId: created.id, agentEnabled })
    return { scope, token, channelId, agentId: created.id, secret }
  }

  async function newMetaChannel(
    platform: 'facebook' | 'whatsapp',
    { agent = true, behaviour }: { agent?: boolean; behaviour?: Partial<AgentBehaviour> } = {},
  ) {
    const scope = await newOwnerScope(handle.db)
    const { channelId, platformChannelId, token } = await insertTestMetaChannel(scope, deps, platform, graph)
    if (!agent) return { scope, channelId, platformChannelId, token }
    const created = await helper(scope, undefined, behaviour)
    await assignAgent(scope, channelId, { agentId: created.id, agentEnabled: true })
    return { scope, channelId, platformChannelId, token, agentId: created.id }
  }

  return {
    handle,
    db: handle.db,
    boss,
    jobs,
    telegram,
    model,
    graph,
    newMetaChannel,
    deps,
    channelDeps,
    publicUrl,
    logs,
    newBot,
    async close() {
      await stopQueues(boss, 2000)
      await Promise.all([handle.close(), telegram.close(), model.close(), graph.close()])
    },
  }
}

let ids = 1000
type FakeFile = { file_id: string; file_size: number }

/** A Telegram message from Ann Lee in a private chat that carries a file (`fields`: Message's voice, photo...). */
export function fileUpdate(chatId: number, fields: Record<string, unknown>, caption?: string) {
  const { message, update_id } = textUpdate(chatId, '')
  const { text: _text, ...rest } = message
  return { update_id, message: { ...rest, ...fields, ...(caption && { caption }) } }
}

/** A Telegram voice note, its file known to the fake. */
export const voiceUpdate = (chatId: number, file: FakeFile, caption?: string) =>
  fileUpdate(
    chatId,
    { voice: { ...file, file_unique_id: `u${file.file_id}`, duration: 1, mime_type: 'audio/ogg' } },
    caption,
  )

/** A Telegram photo (its largest size known to the fake). */
export function photoUpdate(chatId: number, file: FakeFile, caption?: string) {
  const small = {
    file_id: `${file.file_id}-small`,
    file_unique_id: 's',
    width: 90,
    height: 60,
    file_size: 10,
  }
  const large = { ...file, file_unique_id: `u${file.file_id}`, width: 96, height: 64 }
  return fileUpdate(chatId, { photo: [small, large] }, caption)
}

/** A Telegram document with its name, its file known to the fake. */
export const documentUpdate = (chatId: number, file: FakeFile, fileName: string, caption?: string) =>
  fileUpdate(
    chatId,
    { document: { ...file, file_unique_id: `u${file.file_id}`, file_name: fileName } },
    caption,
  )

/** A Telegram text message update from Ann Lee in a private chat (the chat id is the person's id). */
export function textUpdate(chatId: number, text: string, messageId = ++ids) {
  return telegramTextUpdate(
    { updateId: ++ids, messageId, chatId, text },
    { last_name: 'Lee', username: 'ann' },
  )
}

export async function messagesOf(db: Database, channelId: string, direction?: Message['direction']) {
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.channelId, channelId), direction ? eq(messages.direction, direction) : undefined))
    .orderBy(messages.sequence)
}

/** Waits until `check` holds (polling), or fails after `timeoutMs` with what it last saw. */
export async function waitFor<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  { timeoutMs = 10_000, intervalMs = 25 } = {},
): Promise<T> {
  const started = Date.now()
  for (;;) {
    const value = await read()
    if (check(value)) return value
    if (Date.now() - started > timeoutMs) {
      throw new Error(`Timed out after ${timeoutMs} ms; last value: ${JSON.stringify(value)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

/** Until no inbound message of the channel is still queued. */
export function waitForSettled(db: Database, channelId: string, timeoutMs?: number) {
  return waitFor(
    () => messagesOf(db, channelId, 'inbound'),
    (rows) => rows.length > 0 && rows.every((m) => m.status !== 'queued'),
    { timeoutMs },
  )
}
