import { randomBytes, randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { and, eq, inArray } from 'drizzle-orm'
import pg from 'pg'
import type { PgBoss } from 'pg-boss'
import { openDatabase, type DatabaseHandle } from '~/db/client.server'
import { messages } from '~/db/schema'
import { startQueues } from '~/jobs/queues.server'
import type { AgentBehaviour } from '~/lib/agents/behaviour'
import { createLogger } from '~/utils/logger.server'
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai-server'
import { startTelegramFake, type TelegramFake } from '../fakes/telegram-server'
import { seedBots, startAppProcess, type AppProcess, type RigBot } from '../setup/app-rig'

/**
 * What the crash drills share (docs/decisions/021): a database of their own on the PostgreSQL server of
 * DATABASE_URL (so that the worker's pg-boss, in its default schema, sees only the drill's jobs), the Telegram and
 * model fakes, four seeded bots with their agents, and real `server/worker.ts` processes to start and kill.
 */
export type Drill = {
  handle: DatabaseHandle
  boss: PgBoss
  telegram: TelegramFake
  model: OpenAiFake
  bots: RigBot[]
  /** Starts the n-th worker process (its log is kept for workerLogs). */
  startWorker(n: number): AppProcess
  /** Starts the web process (server/index.ts, as production runs it: npm test builds before the drills) on `port`. */
  startWeb(port: number): AppProcess
  /** The end of every worker's log, for a failure's message. */
  workerLogs(): string
  /** Reply jobs claimed by a worker and not settled. */
  activeReplyJobs(): Promise<number>
  /** What our database says of the answers to these messages: whether any part is recorded as sent. */
  sendRecords(inboundIds: string[]): Promise<Map<string, { sentParts: number; status: string }>>
  close(): Promise<void>
}

async function onServer(serverUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

export async function startDrill({
  modelDelayMs,
  behaviour,
  env = {},
}: {
  modelDelayMs: number
  behaviour?: Partial<AgentBehaviour>
  /** More of the app processes' environment (the notification drill's SMTP_URL). */
  env?: Record<string, string>
}): Promise<Drill> {
  const serverUrl = process.env.DATABASE_URL ?? ''
  const databaseName = `replypilot_drill_${randomUUID().replaceAll('-', '').slice(0, 12)}`
  const url = new URL(serverUrl || 'postgres://localhost/postgres')
  url.pathname = `/${databaseName}`
  const drillUrl = url.toString()
  const scratch = mkdtempSync(path.join(tmpdir(), 'replypilot-drill-'))
  const encryptionKey = randomBytes(32).toString('hex')
  const workers: AppProcess[] = []
  const webs: AppProcess[] = []

  const [telegram, model] = await Promise.all([startTelegramFake(), startOpenAiFake()])
  model.setBehavior({ delayMs: modelDelayMs })
  await onServer(serverUrl, `CREATE DATABASE ${databaseName}`)
  const handle = await openDatabase({ databaseUrl: drillUrl, dataDir: scratch })
  const logger = createLogger({ level: 'warn', sink: () => undefined })
  const boss = await startQueues({ database: handle, databaseUrl: drillUrl, logger })
  const bots = await seedBots({
    db: handle.db,
    telegram,
    publicUrl: 'https://replypilot.example.com',
    encryptionKey,
    count: 4,
    behaviour,
  })

  const appEnv = () => ({
    NODE_ENV: 'development',
    DATABASE_URL: drillUrl,
    DATA_DIR: path.join(scratch, 'data'),
    ENCRYPTION_KEY: encryptionKey,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    TELEGRAM_API_ROOT: telegram.apiRoot,
    // Updates come through the webhook receiver's service here; auto mode would long-poll the fake instead.
    TELEGRAM_UPDATES: 'webhook',
    LLM_BASE_URL: model.url,
    LLM_API_KEY: 'sk-drill',
    LOG_LEVEL: 'info',
    ...env,
  })

  function startWorker(n: number) {
    const worker = startAppProcess('server/worker.ts', appEnv(), path.join(scratch, `worker-${n}.log`))
    workers.push(worker)
    return worker
  }

  function startWeb(port: number) {
    if (!existsSync(path.join('build', 'server', 'index.js'))) {
      throw new Error('The web drill runs the production build: run `npm run build` first (npm test does).')
    }
    const env = { ...appEnv(), PORT: String(port), HOST: '127.0.0.1', WORKER_IN_PROCESS: 'false' }
    const web = startAppProcess('server/index.ts', env, path.join(scratch, 'web.log'))
    webs.push(web)
    return web
  }

  return {
    handle,
    boss,
    telegram,
    model,
    bots,
    startWorker,
    startWeb,
    workerLogs: () =>
      workers
        .map((_, i) => readFileSync(path.join(scratch, `worker-${i + 1}.log`), 'utf8').slice(-4000))
        .join('\n'),
    async activeReplyJobs() {
      const result = await handle.pool?.query<{ n: number }>(
        `select count(*)::int as n from pgboss.job_common where name = 'reply' and state = 'active'`,
      )
      return result?.rows[0]?.n ?? 0
    },
    async sendRecords(inboundIds) {
      const rows = await handle.db
        .select({
          inboundId: messages.replyToMessageId,
          sentParts: messages.sentParts,
          status: messages.status,
        })
        .from(messages)
        .where(and(inArray(messages.replyToMessageId, inboundIds), eq(messages.direction, 'outbound')))
      return new Map(rows.map((r) => [r.inboundId ?? '', r]))
    },
    async close() {
      for (const app of [...workers, ...webs]) await app.stop()
      await boss.stop({ graceful: false, close: true }).catch(() => undefined)
      await handle.close()
      await Promise.all([telegram.close(), model.close()])
      await onServer(serverUrl, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`)
      rmSync(scratch, { recursive: true, force: true })
    },
  }
}
