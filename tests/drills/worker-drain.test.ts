/**
 * What server/worker.ts promises on SIGTERM (a deploy, a scale-down): the replies it is writing are finished and
 * sent, then it exits, cleanly; nothing is left for another worker to take over after a heartbeat's timeout.
 * PostgreSQL only, like the crash drills (separate processes): vitest runs this folder when DATABASE_URL is set.
 */
import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messages } from '~/db/schema'
import {
  authenticateTelegramWebhook,
  receiveTelegramUpdate,
} from '~/services/messages/inbound/telegram.server'
import { textUpdate } from '../setup/app-rig'
import { waitFor } from '../setup/pipeline'
import { startDrill, type Drill } from './drill-rig'

/** Long enough that SIGTERM lands while every reply is still with the model. */
const MODEL_DELAY_MS = 2_000

let drill: Drill
beforeAll(async () => {
  drill = await startDrill({ modelDelayMs: MODEL_DELAY_MS })
}, 60_000)
afterAll(async () => {
  await drill?.close()
}, 30_000)

describe('a worker stopped with SIGTERM while it writes replies', () => {
  it('finishes and sends them, then exits with 0', async () => {
    const { handle, boss, telegram, model, bots } = drill
    const worker = drill.startWorker(1)
    await worker.printed('"msg":"worker started"')

    const texts = bots.map((_, i) => `drain drill ${i}`)
    const inboundIds: string[] = []
    for (const [i, bot] of bots.entries()) {
      const channel = await authenticateTelegramWebhook(handle.db, bot.channelId, bot.secret)
      const id = 800_000 + i
      await receiveTelegramUpdate({ db: handle.db, boss, channel, body: textUpdate(id, id, id, texts[i]) })
      const [row] = await handle.db
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.channelId, bot.channelId), eq(messages.text, texts[i])))
      inboundIds.push(row.id)
    }
    // Every reply is with the model, none answered yet.
    await waitFor(
      async () => model.requests.length,
      (n) => n >= bots.length,
      { timeoutMs: 20_000 },
    )
    expect(telegram.calls.filter((c) => c.method === 'sendMessage')).toHaveLength(0)

    worker.child.kill('SIGTERM')
    await worker.exited()
    expect(worker.child.exitCode, drill.workerLogs()).toBe(0)

    const sent = telegram.calls
      .filter((c) => c.method === 'sendMessage')
      .map((c) => String(c.params.text))
      .sort()
    expect(sent).toEqual(texts.map((text) => `Echo: ${text}`).sort())
    const inbound = await handle.db
      .select({ status: messages.status })
      .from(messages)
      .where(inArray(messages.id, inboundIds))
    expect(inbound.map((m) => m.status)).toEqual(inboundIds.map(() => 'replied'))
    expect(await drill.activeReplyJobs()).toBe(0)
  })
})
