import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ingestInboundBatch } from '~/services/messages/ingest/batch.server'
import { ingestInbound, type NormalizedMessage } from '~/services/messages/ingest/ingest.server'
import { announcingReplyQueue, readReplyWakeup } from '~/services/messages/ingest/reply-queue.server'
import {
  authenticateTelegramWebhook,
  normalizeTelegramUpdate,
} from '~/services/messages/inbound/telegram.server'
import { telegramUpdateSchema } from '~/integrations/telegram/update.server'
import { startPipeline, textUpdate, waitFor, type Pipeline } from '../../tests/setup/pipeline'
import { replyWakeupsOf, ReplyWakeups } from './reply-wakeups.server'

describe('ReplyWakeups', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  function withWorkers(...ids: string[]) {
    const woken: string[] = []
    const wakeups = new ReplyWakeups()
    wakeups.attach((id) => woken.push(id))
    for (const id of ids) wakeups.idle(id)
    return { wakeups, woken }
  }

  it('wakes one idle worker per job, each time another, never a busy one', () => {
    const { wakeups, woken } = withWorkers('a', 'b', 'c')
    wakeups.busy('b')
    expect(wakeups.handle('reply')).toBe(true)
    expect(wakeups.handle('reply')).toBe(true)
    expect(wakeups.handle('reply')).toBe(true)
    expect(woken).toEqual(['a', 'c', 'a'])
    wakeups.wake(5)
    expect(woken.slice(3)).toEqual(['c', 'a', 'c', 'a', 'c'])
  })

  it('wakes nobody while every worker is busy (each wakes itself when its job ends)', () => {
    const { wakeups, woken } = withWorkers('a')
    wakeups.busy('a')
    wakeups.handle('reply')
    expect(woken).toEqual([])
  })

  it('wakes as many workers as an announcement counts, when they are due', () => {
    vi.useFakeTimers()
    const { wakeups, woken } = withWorkers('a', 'b', 'c')
    expect(wakeups.handle('reply@0:2')).toBe(true)
    expect(woken).toEqual(['a', 'b'])
    expect(wakeups.handle('reply@3000:2')).toBe(true)
    vi.advanceTimersByTime(2_999)
    expect(woken).toHaveLength(2)
    vi.advanceTimersByTime(1)
    expect(woken.slice(2)).toEqual(['c', 'a'])
  })

  it('leaves other queues’ notifications to pg-boss, and stops its timers', () => {
    vi.useFakeTimers()
    const { wakeups, woken } = withWorkers('a')
    expect(wakeups.handle('knowledge')).toBe(false)
    expect(wakeups.handle('reply@x:1')).toBe(false)
    wakeups.handle('reply@1000:1')
    wakeups.stop()
    vi.advanceTimersByTime(5_000)
    expect(woken).toEqual([])
  })
})

// Through the database: the receivers' batch statement announces its jobs on pg-boss's channel, and this
// process's listener hands the announcements to the reply workers' wakeups. No worker runs here: a recording one
// stands in for them, so that what is counted is the wakes, not the fetches.
describe('a batch of messages announces its reply jobs', () => {
  let p: Pipeline
  beforeAll(async () => {
    p = await startPipeline({ worker: false })
  })
  afterAll(async () => {
    await p?.close()
  })

  let chats = 930_000
  async function batchOf(bot: { channelId: string; secret: string }, conversations: number) {
    const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
    const batch: NormalizedMessage[] = []
    for (let i = 0; i < conversations; i++) {
      const message = normalizeTelegramUpdate(
        channel,
        telegramUpdateSchema.parse(textUpdate(++chats, `Hi ${i}`)),
      )
      if (message) batch.push(message)
    }
    return batch
  }

  function recordWakes() {
    const woken: number[] = []
    const wakeups = replyWakeupsOf(p.boss)
    wakeups.attach(() => woken.push(Date.now()))
    for (let i = 0; i < 8; i++) wakeups.idle(`stand-in ${i}`)
    return woken
  }

  it('due now: one wake per job, at once', async () => {
    const bot = await p.newBot()
    const woken = recordWakes()
    const stored = Date.now()
    await ingestInboundBatch({ db: p.db, jobs: p.jobs, messages: await batchOf(bot, 3) })
    await waitFor(
      async () => woken.length,
      (n) => n >= 3,
    )
    // Let a stray fourth one show up if there were one.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(woken).toHaveLength(3)
    expect(Math.max(...woken) - stored).toBeLessThan(2_000)
  })

  it('with a burst wait: when the wait ends, not at a poll', async () => {
    const bot = await p.newBot({ behaviour: { burstWaitSeconds: 1 } })
    const woken = recordWakes()
    const stored = Date.now()
    await ingestInboundBatch({ db: p.db, jobs: p.jobs, messages: await batchOf(bot, 2) })
    await waitFor(
      async () => woken.length,
      (n) => n >= 2,
    )
    expect(woken).toHaveLength(2)
    // Not before the wait: the jobs are not due until then.
    expect(Math.min(...woken) - stored).toBeGreaterThanOrEqual(1_000)
  })

  it('a message stored alone with a burst wait is announced too', async () => {
    const bot = await p.newBot({ behaviour: { burstWaitSeconds: 1 } })
    const [message] = await batchOf(bot, 1)
    const woken = recordWakes()
    const stored = Date.now()
    await ingestInbound({ db: p.db, boss: announcingReplyQueue(p.boss, p.jobs.schema), message })
    await waitFor(
      async () => woken.length,
      (n) => n >= 1,
    )
    expect(woken).toHaveLength(1)
    expect(woken[0] - stored).toBeGreaterThanOrEqual(1_000)
  })

  it('reads its own announcements only', () => {
    expect(readReplyWakeup('reply@1000:2')).toEqual({ ms: 1000, count: 2 })
    expect(readReplyWakeup('reply')).toBeUndefined()
    expect(readReplyWakeup('knowledge@1000:2')).toBeUndefined()
  })
})
