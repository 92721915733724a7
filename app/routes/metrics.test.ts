import { randomBytes, randomInt, randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAgentSchema } from '~/lib/agent-schemas'
import { createAgent } from '~/services/agents/agents.server'
import { assignAgent, insertChannel } from '~/services/channels/channels.server'
import { connectTelegramBot, setTelegramWebhook } from '~/services/channels/telegram.server'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { closeRuntime, getRuntime, type Runtime } from '~/runtime/runtime.server'
import { deliverSignedWebhook, startGraphFake, type GraphFake } from '../../tests/fakes/graph-server'
import { startOpenAiFake, type OpenAiFake } from '../../tests/fakes/openai-server'
import { startTelegramFake, type TelegramFake } from '../../tests/fakes/telegram-server'
import { textUpdate, waitForSettled } from '../../tests/setup/pipeline'
import { sample, serveRoutes } from '../../tests/setup/route-server'
import { newOwnerScope } from '../../tests/setup/scope'
import * as metricsRoute from './metrics'
import * as metaWebhook from './webhooks.meta'
import * as telegramWebhook from './webhooks.telegram.$channelId'

// The whole process as the server boots it (the in-process worker included), its receivers and /metrics served
// over HTTP; the fakes deliver and answer the way Telegram, Meta and an OpenAI-compatible model do.
const TOKEN = `metrics-${randomBytes(12).toString('hex')}`
const APP = { appId: '5550002', appSecret: 'metrics-test-app-secret' }
let runtime: Runtime
let telegram: TelegramFake
let graph: GraphFake
let model: OpenAiFake
let http: Awaited<ReturnType<typeof serveRoutes>>
const savedEnv = { ...process.env }

beforeAll(async () => {
  ;[telegram, graph, model, http] = await Promise.all([
    startTelegramFake(),
    startGraphFake(APP),
    startOpenAiFake(),
    serveRoutes([
      [/^\/webhooks\/telegram\/(?<channelId>[^/]+)$/, telegramWebhook],
      [/^\/webhooks\/meta$/, metaWebhook],
      [/^\/metrics$/, metricsRoute],
    ]),
  ])
  Object.assign(process.env, {
    DATABASE_URL: process.env.DATABASE_URL || 'memory://',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'replypilot-metrics-')),
    PUBLIC_URL: http.url,
    TELEGRAM_UPDATES: 'webhook',
    TELEGRAM_API_ROOT: telegram.apiRoot,
    LLM_BASE_URL: model.url,
    LLM_API_KEY: 'sk-test',
    META_APP_ID: APP.appId,
    META_APP_SECRET: APP.appSecret,
    META_GRAPH_ROOT: graph.graphRoot,
    METRICS_TOKEN: TOKEN,
    REPLY_QUEUE_HIGH_WATER: '750',
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
  })
  runtime = await getRuntime({ queueSchema: `pgboss_${randomUUID().replaceAll('-', '').slice(0, 12)}` })
}, 90_000) // a whole runtime boots: slow on a loaded machine
afterAll(async () => {
  await closeRuntime()
  await Promise.all([telegram.close(), graph.close(), model.close(), http.close()])
  process.env = savedEnv
})

const scrape = (authorization = `Bearer ${TOKEN}`) =>
  fetch(`${http.url}/metrics`, { headers: authorization ? { authorization } : {} })
async function metrics() {
  const response = await scrape()
  expect(response.status).toBe(200)
  return response.text()
}

function newAgent(scope: OrganizationScope) {
  return createAgent(
    scope,
    createAgentSchema.parse({
      name: 'Metrics agent',
      readableId: `metrics-${randomUUID().slice(0, 8)}`,
      modelType: 'simple',
      creativityLevel: 0.3,
      systemPrompt: 'Answer briefly.',
    }),
  )
}

async function newBot() {
  const scope = await newOwnerScope(runtime.database.db)
  const token = `${randomInt(1_000_000_000, 9_000_000_000)}:${randomBytes(27).toString('base64url').slice(0, 35)}`
  telegram.addBot({ token, username: `metrics_${randomInt(1e6)}_bot` })
  const deps = { ...runtime.config, telegram: runtime.telegram }
  const channel = await connectTelegramBot(scope, { botToken: token }, deps)
  await setTelegramWebhook(scope, channel.id, true, deps)
  await assignAgent(scope, channel.id, { agentId: (await newAgent(scope)).id })
  return { token, channelId: channel.id, secret: telegram.webhooks.get(token)?.secretToken ?? '' }
}

async function newPage() {
  const scope = await newOwnerScope(runtime.database.db)
  const pageId = String(randomInt(1_000_000_000, 9_000_000_000))
  const token = `EAA${randomBytes(16).toString('hex')}`
  graph.seed({
    users: {
      [`u-${token}`]: { id: `${pageId}1`, pages: [{ id: pageId, name: 'Shop', accessToken: token }] },
    },
  })
  const channel = await insertChannel(scope, runtime.config, {
    platformName: 'facebook',
    channelType: 'facebook_page',
    platformChannelId: pageId,
    accessToken: token,
    metadata: { name: 'Shop' },
  })
  await assignAgent(scope, channel.id, { agentId: (await newAgent(scope)).id })
  return { pageId, channelId: channel.id }
}

const pageDelivery = (pageId: string, text: string) => ({
  object: 'page',
  entry: [
    {
      id: pageId,
      time: Date.now(),
      messaging: [
        {
          sender: { id: `psid-${randomInt(1e9)}` },
          recipient: { id: pageId },
          timestamp: Date.now(),
          message: { mid: `m_${randomUUID()}`, text },
        },
      ],
    },
  ],
})

function postTelegram(channelId: string, body: string, secret: string) {
  return fetch(`${http.url}/webhooks/telegram/${channelId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
    body,
  })
}

describe('GET /metrics', () => {
  it('needs the METRICS_TOKEN bearer token when one is configured', async () => {
    const missing = await scrape('')
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/)
    expect(await missing.text()).not.toContain('replypilot_')
    expect((await scrape(`Bearer ${TOKEN}x`)).status).toBe(401)
    expect((await scrape(`Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`)).status).toBe(401)

    const allowed = await scrape()
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('content-type')).toContain('text/plain; version=0.0.4')
    const body = await allowed.text()
    // Node's own process metrics, and the queue read at scrape time against its configured bound.
    expect(body).toContain('process_cpu_user_seconds_total')
    expect(body).toContain('nodejs_eventloop_lag_seconds')
    expect(sample(body, 'replypilot_reply_queue_high_water')).toBe(750)
    expect(body).toMatch(/^replypilot_reply_queue_depth \d+$/m)
    expect(sample(body, 'replypilot_reply_queue_over_high_water')).toBe(0)
  })

  it('counts webhooks received and rejected by platform and reason, replies sent, model calls and pipeline latency', async () => {
    const bot = await newBot()
    const page = await newPage()
    const before = await metrics()

    expect(await telegram.deliverUpdate(bot.token, textUpdate(777001, 'Hello metrics'))).toBe(200)
    const update = JSON.stringify(textUpdate(777001, 'Forged'))
    expect((await postTelegram(bot.channelId, update, 'not-the-secret')).status).toBe(401)
    expect((await postTelegram(bot.channelId, '{"update_id":', bot.secret)).status).toBe(400)
    expect((await postTelegram(randomUUID(), update, bot.secret)).status).toBe(404)

    const metaUrl = `${http.url}/webhooks/meta`
    expect(
      (await deliverSignedWebhook(metaUrl, pageDelivery(page.pageId, 'Hi page'), APP.appSecret)).status,
    ).toBe(200)
    const forged = await deliverSignedWebhook(metaUrl, pageDelivery(page.pageId, 'Forged'), 'another-secret')
    expect(forged.status).toBe(401)

    await waitForSettled(runtime.database.db, bot.channelId)
    await waitForSettled(runtime.database.db, page.channelId)
    const after = await metrics()
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels)

    expect(delta('replypilot_webhooks_received_total', { platform: 'telegram' })).toBe(1)
    expect(delta('replypilot_webhooks_received_total', { platform: 'facebook' })).toBe(1)
    for (const reason of ['bad_secret', 'bad_body', 'unknown_channel']) {
      expect(delta('replypilot_webhooks_rejected_total', { platform: 'telegram', reason })).toBe(1)
    }
    expect(delta('replypilot_webhooks_rejected_total', { platform: 'meta', reason: 'bad_signature' })).toBe(1)
    expect(delta('replypilot_inbound_messages_total', { platform: 'telegram', result: 'stored' })).toBe(1)
    expect(delta('replypilot_inbound_messages_total', { platform: 'facebook', result: 'stored' })).toBe(1)

    expect(delta('replypilot_replies_sent_total', { platform: 'telegram' })).toBe(1)
    expect(delta('replypilot_replies_sent_total', { platform: 'facebook' })).toBe(1)
    expect(delta('replypilot_pipeline_latency_seconds_count', { platform: 'telegram' })).toBe(1)
    expect(delta('replypilot_pipeline_latency_seconds_sum', { platform: 'telegram' })).toBeGreaterThan(0)
    expect(delta('replypilot_model_latency_seconds_count', { tier: 'simple', outcome: 'ok' })).toBe(2)
    expect(delta('replypilot_model_tokens_count', { tier: 'simple', kind: 'prompt' })).toBe(2)
    expect(delta('replypilot_model_tokens_sum', { tier: 'simple', kind: 'completion' })).toBeGreaterThan(0)
  })

  it('counts a reply that failed after its tries, and the failed model call', async () => {
    const bot = await newBot()
    const before = await metrics()
    // 401 from the model is not retried: the message fails at once with the reason.
    model.enqueue({ status: 401, match: 'Fail me' })
    expect(await telegram.deliverUpdate(bot.token, textUpdate(777002, 'Fail me'))).toBe(200)
    await waitForSettled(runtime.database.db, bot.channelId)
    const after = await metrics()
    const delta = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels)
    expect(delta('replypilot_replies_failed_total', { platform: 'telegram' })).toBe(1)
    expect(delta('replypilot_replies_sent_total', { platform: 'telegram' })).toBe(0)
    expect(delta('replypilot_model_latency_seconds_count', { tier: 'simple', outcome: 'error' })).toBe(1)
  })
})
