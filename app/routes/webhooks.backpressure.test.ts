import { randomBytes, randomInt, randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { channels, messages } from '~/db/schema'
import { insertChannel } from '~/services/channels/channels.server'
import { connectTelegramBot, setTelegramWebhook } from '~/services/channels/telegram.server'
import { REPLY_QUEUE } from '~/services/messages/reply-queue.server'
import { closeRuntime, getRuntime, type Runtime } from '~/runtime/runtime.server'
import { deliverSignedWebhook } from '../../tests/fakes/graph-server'
import { startTelegramFake, type TelegramFake } from '../../tests/fakes/telegram-server'
import { textUpdate } from '../../tests/setup/pipeline'
import { sample, serveRoutes } from '../../tests/setup/route-server'
import { newOwnerScope } from '../../tests/setup/scope'
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
const savedEnv = { ...process.env }

beforeAll(async () => {
  ;[telegram, http] = await Promise.all([
    startTelegramFake(),
    serveRoutes([
      [/^\/webhooks\/telegram\/(?<channelId>[^/]+)$/, telegramWebhook],
      [/^\/webhooks\/meta$/, metaWebhook],
      [/^\/metrics$/, metricsRoute],
    ]),
  ])
  Object.assign(process.env, {
    DATABASE_URL: process.env.DATABASE_URL || 'memory://',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'replypilot-backpressure-')),
    PUBLIC_URL: http.url,
    TELEGRAM_UPDATES: 'webhook',
    TELEGRAM_API_ROOT: telegram.apiRoot,
    META_APP_ID: '5550003',
    META_APP_SECRET: APP_SECRET,
    METRICS_TOKEN: '',
    WORKER_IN_PROCESS: 'false',
    REPLY_QUEUE_HIGH_WATER: String(HIGH_WATER),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'error',
  })
  runtime = await getRuntime({ queueSchema: `pgboss_${randomUUID().replaceAll('-', '').slice(0, 12)}` })
}, 90_000) // a whole runtime boots: slow on a loaded machine
afterAll(async () => {
  await closeRuntime()
  await Promise.all([telegram.close(), http.close()])
  process.env = savedEnv
})

async function metrics() {
  const response = await fetch(`${http.url}/metrics`) // the embedded default without a token: open
  expect(response.status).toBe(200)
  return response.text()
}

describe('webhooks above REPLY_QUEUE_HIGH_WATER', () => {
  it('still store, enqueue and acknowledge every message, and the metrics show the back-pressure', async () => {
    const scope = await newOwnerScope(runtime.database.db)
    const token = `${randomInt(1_000_000_000, 9_000_000_000)}:${randomBytes(27).toString('base64url').slice(0, 35)}`
    telegram.addBot({ token, username: `pressure_${randomInt(1e6)}_bot` })
    const deps = { ...runtime.config, telegram: runtime.telegram }
    const bot = await connectTelegramBot(scope, { botToken: token }, deps)
    await setTelegramWebhook(scope, bot.id, true, deps)
    const pageId = String(randomInt(1_000_000_000, 9_000_000_000))
    const page = await insertChannel(scope, runtime.config, {
      platformName: 'facebook',
      channelType: 'facebook_page',
      platformChannelId: pageId,
      accessToken: `EAA${randomBytes(16).toString('hex')}`,
      metadata: { name: 'Shop' },
    })

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
    const delivery = {
      object: 'page',
      entry: [
        {
          id: pageId,
          time: Date.now(),
          messaging: [
            {
              sender: { id: 'psid-pressure' },
              recipient: { id: pageId },
              timestamp: Date.now(),
              message: { mid: `m_${randomUUID()}`, text: 'Over on Messenger' },
            },
          ],
        },
      ],
    }
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
