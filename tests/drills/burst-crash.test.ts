/**
 * The crash drill with bursts (docs/decisions/021 and 041): agents wait 1 s for the customer to finish, customers
 * write in bursts of three lines, and a real worker process (`node --import tsx server/worker.ts`) is killed with
 * SIGKILL mid-way and started again. Afterwards every burst has exactly one stored answer (replying to its last
 * message, every line `replied`), and reached the platform once, in order, or the test names each burst whose
 * answer went out twice and proves that its first send fell in the window between the platform's acceptance and
 * our record of it.
 *
 * Burst boundaries are made deterministic: a conversation sends its next burst only once the platform has the
 * previous burst's answer (a burst written while its predecessor is still unanswered would be merged with it, by
 * design). The three lines of a burst go out back to back, well within the wait.
 *
 * PostgreSQL only, like worker-crash.test.ts (a database of its own on the server, so that the worker's pg-boss
 * sees only its jobs).
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
const BURSTS_EACH = 4
const LINES_EACH = 3
const BURST_WAIT_SECONDS = 1
const MODEL_DELAY_MS = 150
/** Burst answers the platform has before the kill: every conversation past its first burst, most still ahead. */
const ANSWERS_BEFORE_KILL = 25
/** The takeover (heartbeat 10 s, a supervisor pass every 10 s, a retry after 2-4 s), then the bursts still to
 * come, each a wait and a poll (up to 2 s) behind the previous one; generous for a loaded machine. */
const FINISH_BUDGET_MS = 75_000

let drill: Drill
let handle: DatabaseHandle
let boss: PgBoss
let telegram: TelegramFake
let bots: RigBot[]
beforeAll(async () => {
  drill = await startDrill({
    modelDelayMs: MODEL_DELAY_MS,
    behaviour: { burstWaitSeconds: BURST_WAIT_SECONDS },
  })
  ;({ handle, boss, telegram, bots } = drill)
}, 60_000)
afterAll(async () => {
  await drill?.close()
}, 30_000)

const startWorker = (n: number) => drill.startWorker(n)
const workerLogs = () => drill.workerLogs()

type Burst = {
  chatId: number
  index: number
  /** The lines' message ids, in order: the last one is the one the answer replies to. */
  ids: string[]
  /** What the fake model answers (it echoes the last user turn, the burst's lines merged). */
  answer: string
}

const chatIds = new Set(Array.from({ length: CONVERSATIONS }, (_, c) => String(600_000 + c)))
/** Every message the platform was asked to send to the drill's chats, in the order it accepted them. */
const sends = () =>
  telegram.calls.filter((c) => c.method === 'sendMessage' && chatIds.has(String(c.params.chat_id)))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('a worker killed with SIGKILL mid-burst, with a 1 s burst wait, then started again', () => {
  it('answers every burst exactly once and in order, or names each duplicate and proves it fell in the send window', async () => {
    const first = startWorker(1)
    await first.printed('"msg":"worker started"')

    // 20 conversations side by side, each 4 bursts of 3 lines; a burst once the previous one is answered.
    const bursts: Burst[] = []
    const runTag = randomBytes(3).toString('hex')
    const finishBy = { at: Number.POSITIVE_INFINITY }
    let updateIds = 0
    const writing = Promise.all(
      Array.from({ length: CONVERSATIONS }, async (_, c) => {
        const bot = bots[c % bots.length]
        const channel = await authenticateTelegramWebhook(handle.db, bot.channelId, bot.secret)
        const chatId = 600_000 + c
        for (let index = 0; index < BURSTS_EACH; index++) {
          const lines = Array.from(
            { length: LINES_EACH },
            (_, l) => `${runTag} chat ${chatId} burst ${index} line ${l}`,
          )
          const ids: string[] = []
          for (const text of lines) {
            const id = ++updateIds + c * 1000
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
            ids.push(row.id)
          }
          const burst = { chatId, index, ids, answer: `Echo: ${lines.join('\n')}` }
          bursts.push(burst)
          while (!sends().some((call) => call.params.text === burst.answer)) {
            if (Date.now() > finishBy.at) return
            await sleep(20)
          }
        }
      }),
    )
    const answersAtPlatform = () => new Set(sends().map((call) => String(call.params.text)))
    const answered = () => bursts.filter((b) => answersAtPlatform().has(b.answer)).length

    // Kill it mid-way, at a random moment of a job's life.
    const killBy = Date.now() + 60_000
    while (answered() < ANSWERS_BEFORE_KILL && Date.now() < killBy) await sleep(5)
    await sleep(Math.random() * 300)
    first.child.kill('SIGKILL')
    await first.exited()
    const killedAt = Date.now()
    finishBy.at = killedAt + FINISH_BUDGET_MS
    // Whatever the dead process had put on the wire lands now; nothing more can come from it.
    await sleep(500)
    const atKill = {
      sent: answersAtPlatform(),
      bursts: bursts.length,
      recorded: await drill.sendRecords(bursts.map((b) => b.ids.at(-1) ?? '')),
      activeJobs: await drill.activeReplyJobs(),
    }
    expect(atKill.sent.size).toBeGreaterThanOrEqual(ANSWERS_BEFORE_KILL)
    expect(atKill.sent.size).toBeLessThan(CONVERSATIONS * BURSTS_EACH - CONVERSATIONS)

    // Started again, it takes the dead one's jobs over once their heartbeat lapses, and the customers go on.
    const second = startWorker(2)
    await second.printed('"msg":"worker started"')
    await writing
    for (;;) {
      const rows = await handle.db
        .select({ status: messages.status })
        .from(messages)
        .where(
          inArray(
            messages.id,
            bursts.flatMap((b) => b.ids),
          ),
        )
      if (bursts.length === CONVERSATIONS * BURSTS_EACH && rows.every((r) => r.status !== 'queued')) break
      if (Date.now() > finishBy.at) {
        const missing = bursts.filter((b) => !answersAtPlatform().has(b.answer)).map((b) => b.answer)
        throw new Error(
          `Not every burst was answered ${FINISH_BUDGET_MS} ms after the kill (${bursts.length} bursts written; ` +
            `no answer at the platform for ${JSON.stringify(missing)}; the platform got ` +
            `${JSON.stringify(sends().map((c) => c.params.text))}):\n${workerLogs()}`,
        )
      }
      await sleep(100)
    }
    const recoveredInMs = Date.now() - killedAt
    await sleep(1000) // a second send would show by now

    // Exactly-once storage: every line replied; one stored answer per burst, to its last line, recorded as sent.
    const inboundIds = bursts.flatMap((b) => b.ids)
    const stored = await handle.db
      .select({ id: messages.id, status: messages.status })
      .from(messages)
      .where(inArray(messages.id, inboundIds))
    expect(stored).toHaveLength(CONVERSATIONS * BURSTS_EACH * LINES_EACH)
    expect(stored.map((r) => r.status)).toEqual(stored.map(() => 'replied'))
    const answers = await handle.db
      .select({ inboundId: messages.replyToMessageId, status: messages.status, text: messages.text })
      .from(messages)
      .where(and(inArray(messages.replyToMessageId, inboundIds), eq(messages.direction, 'outbound')))
    const expected = new Map(bursts.map((b) => [b.ids.at(-1), b.answer]))
    expect(answers).toHaveLength(bursts.length)
    for (const answer of answers) {
      expect(answer.status).toBe('sent')
      expect(answer.text).toBe(expected.get(answer.inboundId ?? undefined))
    }
    const outbound = await handle.db
      .select({ id: messages.id })
      .from(messages)
      .where(
        and(
          inArray(messages.channelId, [...new Set(bots.map((b) => b.channelId))]),
          eq(messages.direction, 'outbound'),
        ),
      )
    expect(outbound).toHaveLength(bursts.length) // and nothing else: no answer to a burst's earlier lines

    // At the platform: each burst's answer, nothing else; twice only for sends that fell in the window.
    const byText = new Map(bursts.map((b) => [b.answer, b]))
    const times = new Map<string, number>()
    for (const call of sends()) {
      const text = String(call.params.text)
      expect(byText.has(text), `an answer that is no burst's: ${text}`).toBe(true)
      times.set(text, (times.get(text) ?? 0) + 1)
    }
    for (const burst of bursts) expect(times.get(burst.answer), burst.answer).toBeGreaterThan(0)
    const duplicates = bursts.filter((b) => (times.get(b.answer) ?? 0) > 1)
    for (const burst of duplicates) {
      const record = atKill.recorded.get(burst.ids.at(-1) ?? '')
      const proof = {
        chatId: burst.chatId,
        burst: burst.index,
        lastMessageId: burst.ids.at(-1),
        answersAtPlatform: times.get(burst.answer),
        acceptedByPlatformBeforeKill: atKill.sent.has(burst.answer),
        ourRecordAtKill: record ? { status: record.status, sentParts: record.sentParts } : 'no answer stored',
      }
      console.info(
        `sent twice, in the window between the platform's acceptance and our commit: ${JSON.stringify(proof)}`,
      )
      expect(proof.answersAtPlatform).toBe(2)
      expect(proof.acceptedByPlatformBeforeKill).toBe(true)
      expect(record === undefined || (record.sentParts === 0 && record.status === 'pending')).toBe(true)
    }
    expect(duplicates.length).toBeLessThanOrEqual(atKill.activeJobs)

    // Order per conversation: each chat's answers (first sends) in the order of its bursts.
    const firstSends = new Map<number, number[]>()
    const seen = new Set<string>()
    for (const call of sends()) {
      const text = String(call.params.text)
      if (seen.has(text)) continue
      seen.add(text)
      const burst = byText.get(text)
      if (burst) firstSends.set(burst.chatId, [...(firstSends.get(burst.chatId) ?? []), burst.index])
    }
    expect(firstSends.size).toBe(CONVERSATIONS)
    for (const indexes of firstSends.values())
      expect(indexes).toEqual(Array.from({ length: BURSTS_EACH }, (_, i) => i))

    console.info(
      `burst crash drill: ${atKill.sent.size} of ${atKill.bursts} bursts answered before the kill, ` +
        `${atKill.activeJobs} jobs held by the dead worker, all ${bursts.length} bursts ` +
        `(${inboundIds.length} messages) answered ${(recoveredInMs / 1000).toFixed(1)} s after it, ` +
        `${duplicates.length} sent twice in the window`,
    )
  }, 150_000)
})
