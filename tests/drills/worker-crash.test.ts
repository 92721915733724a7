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
import { randomBytes } from 'node:crypto'
import { and, eq, inArray } from 'drizzle-orm'
import type { PgBoss } from 'pg-boss'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '~/db/client.server'
import { messages } from '~/db/schema'
import {
  authenticateTelegramWebhook,
  receiveTelegramUpdate,
} from '~/services/messages/inbound/telegram.server'
import type { TelegramFake } from '../fakes/telegram-server'
import { textUpdate, type RigBot } from '../setup/app-rig'
import { startDrill, type Drill } from './drill-rig'

const CONVERSATIONS = 20
const MESSAGES_EACH = 10
const MODEL_DELAY_MS = 150
/** Replies the platform has before the kill: the worker is well into the batch, most of it still ahead. */
const REPLIES_BEFORE_KILL = 40
/** A dead worker's jobs come back after its heartbeat (10 s), a supervisor pass (every 10 s) and a retry (2-4 s):
 * about 25 s, up to 40 s when other test files load the machine. */
const TAKEOVER_BUDGET_MS = 60_000

let drill: Drill
let handle: DatabaseHandle
let boss: PgBoss
let telegram: TelegramFake
let bots: RigBot[]
beforeAll(async () => {
  drill = await startDrill({ modelDelayMs: MODEL_DELAY_MS })
  ;({ handle, boss, telegram, bots } = drill)
}, 60_000)
afterAll(async () => {
  await drill?.close()
}, 30_000)

const startWorker = (n: number) => drill.startWorker(n)
const workerLogs = () => drill.workerLogs()

type Inbound = { id: string; text: string; chatId: number; index: number }

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
      recorded: await drill.sendRecords(inbound.map((m) => m.id)),
      activeJobs: await drill.activeReplyJobs(),
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
