/**
 * The crash drill (docs/decisions/021): a real worker process (`node --import tsx server/worker.ts`) is killed
 * with SIGKILL while 200 messages are in flight, and started again. Afterwards every message has exactly one
 * stored answer and exactly one reply at the platform, or the test names each message whose reply went out
 * twice and proves that its first send fell in the window between the platform's acceptance and our record of
 * it: the platform had the reply at the kill, and our database had no record of having sent it.
 *
 * PostgreSQL only (it needs separate processes): vitest runs this folder when DATABASE_URL is set. The drill
 * works in a database of its own on that server, so that the worker's pg-boss (default schema) sees only its
 * jobs.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { and, eq, inArray } from 'drizzle-orm'
import pg from 'pg'
import type { PgBoss } from 'pg-boss'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type DatabaseHandle } from '~/db/client.server'
import { messages } from '~/db/schema'
import { startQueues } from '~/jobs/queues.server'
import {
  authenticateTelegramWebhook,
  receiveTelegramUpdate,
} from '~/services/messages/telegram-webhook.server'
import { createLogger } from '~/utils/logger.server'
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai-server'
import { startTelegramFake, type TelegramFake } from '../fakes/telegram-server'
import { seedBots, startAppProcess, textUpdate, type AppProcess, type RigBot } from '../setup/app-rig'

const CONVERSATIONS = 20
const MESSAGES_EACH = 10
const MODEL_DELAY_MS = 150
/** Replies the platform has before the kill: the worker is well into the batch, most of it still ahead. */
const REPLIES_BEFORE_KILL = 40
/** A dead worker's jobs come back after its heartbeat (10 s), a supervisor pass (every 10 s) and a retry (2-4 s):
 * about 25 s, up to 40 s when other test files load the machine. */
const TAKEOVER_BUDGET_MS = 60_000

const serverUrl = process.env.DATABASE_URL ?? ''
const databaseName = `replypilot_drill_${randomUUID().replaceAll('-', '').slice(0, 12)}`
const drillUrl = (() => {
  const url = new URL(serverUrl || 'postgres://localhost/postgres')
  url.pathname = `/${databaseName}`
  return url.toString()
})()

let scratch: string
let telegram: TelegramFake
let model: OpenAiFake
let handle: DatabaseHandle
let boss: PgBoss
let bots: RigBot[]
const workers: AppProcess[] = []
const encryptionKey = randomBytes(32).toString('hex')

async function onServer(statement: string) {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

function startWorker(n: number) {
  const env = {
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
  }
  const worker = startAppProcess('server/worker.ts', env, path.join(scratch, `worker-${n}.log`))
  workers.push(worker)
  return worker
}

const workerLogs = () =>
  workers
    .map((_, i) => readFileSync(path.join(scratch, `worker-${i + 1}.log`), 'utf8').slice(-4000))
    .join('\n')

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'replypilot-drill-'))
  ;[telegram, model] = await Promise.all([startTelegramFake(), startOpenAiFake()])
  model.setBehavior({ delayMs: MODEL_DELAY_MS })
  await onServer(`CREATE DATABASE ${databaseName}`)
  handle = await openDatabase({ databaseUrl: drillUrl, dataDir: scratch })
  const logger = createLogger({ level: 'warn', sink: () => undefined })
  boss = await startQueues({ database: handle, databaseUrl: drillUrl, logger })
  bots = await seedBots({
    db: handle.db,
    telegram,
    publicUrl: 'https://replypilot.example.com',
    encryptionKey,
    count: 4,
  })
}, 60_000)

afterAll(async () => {
  for (const worker of workers) await worker.stop()
  await boss?.stop({ graceful: false, close: true }).catch(() => undefined)
  await handle?.close()
  await Promise.all([telegram?.close(), model?.close()])
  await onServer(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`)
  rmSync(scratch, { recursive: true, force: true })
}, 30_000)

type Inbound = { id: string; text: string; chatId: number; index: number }

/** What our database says of each answer: whether any part of it is recorded as sent. */
async function sendRecords(ids: string[]) {
  const rows = await handle.db
    .select({ inboundId: messages.replyToMessageId, sentParts: messages.sentParts, status: messages.status })
    .from(messages)
    .where(and(inArray(messages.replyToMessageId, ids), eq(messages.direction, 'outbound')))
  return new Map(rows.map((r) => [r.inboundId ?? '', r]))
}

/** Reply jobs claimed by a worker and not settled. */
async function activeReplyJobs(): Promise<number> {
  const result = await handle.pool?.query<{ n: number }>(
    `select count(*)::int as n from pgboss.job_common where name = 'reply' and state = 'active'`,
  )
  return result?.rows[0]?.n ?? 0
}

const sendsOf = (texts: Set<string>) =>
  telegram.calls.filter((c) => c.method === 'sendMessage' && texts.has(String(c.params.text)))

describe('a worker killed with SIGKILL while 200 messages are in flight, then started again', () => {
  it('answers every message exactly once, or names each duplicate and proves it fell in the send window', async () => {
    const first = startWorker(1)
    await first.printed('"msg":"worker started"')

    // 20 conversations, each 10 messages in order; the conversations side by side.
    const inbound: Inbound[] = []
    const runTag = randomBytes(3).toString('hex')
    let ids = 0
    await Promise.all(
      Array.from({ length: CONVERSATIONS }, async (_, c) => {
        const bot = bots[c % bots.length]
        const channel = await authenticateTelegramWebhook(handle.db, bot.channelId, bot.secret)
        const chatId = 500_000 + c
        for (let index = 0; index < MESSAGES_EACH; index++) {
          const text = `${runTag} chat ${chatId} message ${index}`
          const id = ++ids + c * 1000
          await receiveTelegramUpdate({
            db: handle.db,
            boss,
            channel,
            body: textUpdate(id, chatId, id, text),
          })
          const [row] = await handle.db
            .select({ id: messages.id })
            .from(messages)
            .where(
              and(eq(messages.channelId, bot.channelId), eq(messages.platformMessageId, `${chatId}:${id}`)),
            )
          inbound.push({ id: row.id, text, chatId, index })
        }
      }),
    )
    expect(inbound).toHaveLength(CONVERSATIONS * MESSAGES_EACH)
    const replyText = new Map(inbound.map((m) => [`Echo: ${m.text}`, m]))
    const replyTexts = new Set(replyText.keys())

    // Kill it mid-batch.
    const killBy = Date.now() + 30_000
    while (sendsOf(replyTexts).length < REPLIES_BEFORE_KILL && Date.now() < killBy) {
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    // At a random moment of a job's life, not right after an acceptance the loop above just saw.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 300))
    first.child.kill('SIGKILL')
    await first.exited()
    const killedAt = Date.now()
    // Whatever the dead process had already put on the wire lands now: statements it sent run to their end on
    // the server, requests it sent reach the fake. Nothing more can come from it.
    await new Promise((resolve) => setTimeout(resolve, 500))
    const atKill = {
      sent: new Set(sendsOf(replyTexts).map((c) => String(c.params.text))),
      recorded: await sendRecords(inbound.map((m) => m.id)),
      activeJobs: await activeReplyJobs(),
    }
    const unanswered = inbound.filter((m) => !atKill.sent.has(`Echo: ${m.text}`))
    // The kill did land mid-flight: replies behind it, most messages still to answer, jobs claimed by the dead.
    expect(atKill.sent.size).toBeGreaterThanOrEqual(REPLIES_BEFORE_KILL)
    expect(unanswered.length).toBeGreaterThan(100)
    expect(atKill.activeJobs).toBeGreaterThan(0)

    // Started again, it takes the dead one's jobs over once their heartbeat lapses, and finishes the batch.
    const second = startWorker(2)
    await second.printed('"msg":"worker started"')
    const deadline = killedAt + TAKEOVER_BUDGET_MS
    for (;;) {
      const rows = await handle.db
        .select({ status: messages.status })
        .from(messages)
        .where(
          inArray(
            messages.id,
            inbound.map((m) => m.id),
          ),
        )
      if (rows.every((r) => r.status !== 'queued')) break
      if (Date.now() > deadline) {
        throw new Error(
          `Not every message was answered ${TAKEOVER_BUDGET_MS} ms after the kill:\n${workerLogs()}`,
        )
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const recoveredInMs = Date.now() - killedAt
    await new Promise((resolve) => setTimeout(resolve, 1000)) // a second send would show by now

    // Exactly-once storage: every message replied, one stored answer each, recorded as sent.
    const stored = await handle.db
      .select({ id: messages.id, status: messages.status })
      .from(messages)
      .where(
        inArray(
          messages.id,
          inbound.map((m) => m.id),
        ),
      )
    expect(stored.map((r) => r.status)).toEqual(stored.map(() => 'replied'))
    const answers = await handle.db
      .select({ inboundId: messages.replyToMessageId, status: messages.status })
      .from(messages)
      .where(
        and(
          inArray(
            messages.replyToMessageId,
            inbound.map((m) => m.id),
          ),
          eq(messages.direction, 'outbound'),
        ),
      )
    expect(answers).toHaveLength(inbound.length)
    expect(new Set(answers.map((a) => a.inboundId)).size).toBe(inbound.length)
    expect(answers.every((a) => a.status === 'sent')).toBe(true)

    // At the platform: one reply per message, but for sends that fell in the window.
    const times = new Map<string, number>()
    for (const call of sendsOf(replyTexts)) {
      const text = String(call.params.text)
      times.set(text, (times.get(text) ?? 0) + 1)
    }
    const duplicates = inbound.filter((m) => (times.get(`Echo: ${m.text}`) ?? 0) > 1)
    for (const message of inbound) expect(times.get(`Echo: ${message.text}`), message.text).toBeGreaterThan(0)
    for (const message of duplicates) {
      const record = atKill.recorded.get(message.id)
      const proof = {
        message: message.text,
        messageId: message.id,
        repliesAtPlatform: times.get(`Echo: ${message.text}`),
        acceptedByPlatformBeforeKill: atKill.sent.has(`Echo: ${message.text}`),
        ourRecordAtKill: record ? { status: record.status, sentParts: record.sentParts } : 'no answer stored',
      }
      console.info(
        `sent twice, in the window between the platform's acceptance and our commit: ${JSON.stringify(proof)}`,
      )
      expect(proof.repliesAtPlatform).toBe(2)
      expect(proof.acceptedByPlatformBeforeKill).toBe(true)
      expect(record === undefined || (record.sentParts === 0 && record.status === 'pending')).toBe(true)
    }
    // A window of one round trip: at most the jobs in flight at the kill could fall in it.
    expect(duplicates.length).toBeLessThanOrEqual(atKill.activeJobs)

    // Order per conversation: each chat's replies (first sends) in the order its messages came.
    const firstSends = new Map<number, number[]>()
    const seen = new Set<string>()
    for (const call of sendsOf(replyTexts)) {
      const text = String(call.params.text)
      if (seen.has(text)) continue
      seen.add(text)
      const message = replyText.get(text)
      if (message) firstSends.set(message.chatId, [...(firstSends.get(message.chatId) ?? []), message.index])
    }
    for (const indexes of firstSends.values()) expect(indexes).toEqual([...indexes].sort((a, b) => a - b))

    console.info(
      `crash drill: ${atKill.sent.size} replies before the kill, ${atKill.activeJobs} jobs held by the ` +
        `dead worker, all ${inbound.length} answered ${(recoveredInMs / 1000).toFixed(1)} s after it, ` +
        `${duplicates.length} sent twice in the window`,
    )
  }, 120_000)
})
