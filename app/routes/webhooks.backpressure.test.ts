import { randomInt } from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { channels, messages } from '~/db/schema'
import { REPLY_QUEUE } from '~/services/messages/ingest/reply-queue.server'
import type { Runtime } from '~/runtime/runtime.server'
import { deliverSignedWebhook } from '../../tests/fakes/graph-server'
import { startTelegramFake, type TelegramFake } from '../../tests/fakes/telegram-server'
import { messengerDelivery, messengerText } from '../../tests/fixtures/meta/deliveries'
import { textUpdate } from '../../tests/setup/pipeline'
import { sample, serveRoutes } from '../../tests/setup/route-server'
import { bootRuntime } from '../../tests/setup/runtime'
import { newOwnerScope } from '../../tests/setup/scope'
import { connectTestBot, insertTestMetaChannel } from '../../tests/setup/tenant'
import * as metricsRoute from './metrics'
import * as metaWebhook from './webhooks.meta'
import * as telegramWebhook from './webhooks.telegram.$channelId'

// Back-pressure (docs/decisions/019): no process works the queue here, so it only grows; above
// REPLY_QUEUE_HIGH_WATER the receivers must still store, enqueue and acknowledge every message.
const HIGH_WATER = 3
const APP_SECRET = 'backpressure-app-secret'
let runtime: Runtime
let telegram: TelegramFake
let http: Awaited<ReturnType<typeof serveRoutes>>
let booted: Awaited<ReturnType<typeof bootRuntime>>

beforeAll(async () => {
  ;[telegram, http] = await Promise.all([
    startTelegramFake(),
    serveRoutes([
      [/^\/webhooks\/telegram\/(?<channelId>[^/]+)$/, telegramWebhook],
      [/^\/webhooks\/meta$/, metaWebhook],
      [/^\/metrics$/, metricsRoute],
    ]),
  ])
  booted = await bootRuntime('backpressure', {
    PUBLIC_URL: http.url,
    TELEGRAM_UPDATES: 'webhook',
    TELEGRAM_API_ROOT: telegram.apiRoot,
    META_APP_ID: '5550003',
    META_APP_SECRET: APP_SECRET,
    METRICS_TOKEN: '',
    WORKER_IN_PROCESS: 'false',
    REPLY_QUEUE_HIGH_WATER: String(HIGH_WATER),
    LOG_LEVEL: 'error',
  })
  runtime = booted.runtime
}, 90_000) // a whole runtime boots: slow on a loaded machine
afterAll(async () => {
  await booted.close()
  await Promise.all([telegram.close(), http.close()])
})

async function metrics() {
  const response = await fetch(`${http.url}/metrics`) // the embedded default without a token: open
  expect(response.status).toBe(200)
  return response.text()
}

describe('webhooks above REPLY_QUEUE_HIGH_WATER', () => {
  it('still store, enqueue and acknowledge every message, and the metrics show the back-pressure', async () => {
    const scope = await newOwnerScope(runtime.database.db)
    const deps = { ...runtime.config, telegram: runtime.telegram }
    const { token, channel: bot } = await connectTestBot(scope, telegram, deps, {
      username: `pressure_${randomInt(1e6)}_bot`,
    })
    const { platformChannelId: pageId, channel: page } = await insertTestMetaChannel(
      scope,
      runtime.config,
      'facebook',
    )

    const first = await metrics()
    expect(sample(first, 'replypilot_reply_queue_over_high_water')).toBe(0)
    const overBefore = (platform: string) =>
      sample(first, 'replypilot_webhooks_acknowledged_over_high_water_total', { platform })

    // Up to one over the bound (each acknowledgement judged by an earlier reading: none counts as over yet),
    // then over it: every delivery is acknowledged.
    const statuses: number[] = []
    for (let i = 0; i < HIGH_WATER + 1; i++) {
      statuses.push(await telegram.deliverUpdate(token, textUpdate(880001, `Under ${i}`)))
    }
    const crowded = await metrics() // a scrape reads the depth afresh (and refreshes the receivers' reading)
    expect(sample(crowded, 'replypilot_reply_queue_depth')).toBeGreaterThanOrEqual(HIGH_WATER + 1)
    expect(sample(crowded, 'replypilot_reply_queue_over_high_water')).toBe(1)

    for (let i = 0; i < 3; i++) {
      statuses.push(await telegram.deliverUpdate(token, textUpdate(880001, `Over ${i}`)))
    }
    const delivery = messengerDelivery(pageId, messengerText(pageId, 'psid-pressure', 'Over on Messenger'))
    statuses.push((await deliverSignedWebhook(`${http.url}/webhooks/meta`, delivery, APP_SECRET)).status)
    expect(statuses).toEqual(Array(HIGH_WATER + 5).fill(200))

    // Nothing dropped: every message stored as queued, each with its reply job.
    const stored = await runtime.database.db
      .select({ id: messages.id, status: messages.status, text: messages.text })
      .from(messages)
      .where(inArray(messages.channelId, [bot.id, page.id]))
    expect(stored).toHaveLength(HIGH_WATER + 5)
    expect(stored.every((m) => m.status === 'queued')).toBe(true)
    const jobs = await runtime.boss.findJobs(REPLY_QUEUE)
    const ids = new Set(stored.map((m) => m.id))
    expect(jobs.filter((job) => ids.has((job.data as { messageId: string }).messageId))).toHaveLength(
      HIGH_WATER + 5,
    )

    const after = await metrics()
    const over = (platform: string) =>
      sample(after, 'replypilot_webhooks_acknowledged_over_high_water_total', { platform }) -
      overBefore(platform)
    expect(over('telegram')).toBe(3)
    expect(over('facebook')).toBe(1)
    expect(sample(after, 'replypilot_reply_queue_depth')).toBeGreaterThanOrEqual(HIGH_WATER + 5)
    expect(sample(after, 'replypilot_reply_queue_over_high_water')).toBe(1)
    expect((await runtime.database.db.select().from(channels).where(eq(channels.id, bot.id)))[0].status).toBe(
      'active',
    )
  })
})
