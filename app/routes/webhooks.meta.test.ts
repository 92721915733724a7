import { randomInt, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messages } from '~/db/schema'
import { signMetaPayload } from '~/integrations/meta/signature.server'
import { assignAgent } from '~/services/channels/channels.server'
import { REPLY_QUEUE } from '~/services/messages/ingest/reply-queue.server'
import type { Runtime } from '~/runtime/runtime.server'
import {
  deliverSignedWebhook,
  metaJson,
  startGraphFake,
  type GraphFake,
} from '../../tests/fakes/graph-server'
import { startOpenAiFake, type OpenAiFake } from '../../tests/fakes/openai-server'
import { messengerDelivery, messengerText } from '../../tests/fixtures/meta/deliveries'
import { messagesOf, waitFor, waitForSettled } from '../../tests/setup/pipeline'
import { serveRoutes } from '../../tests/setup/route-server'
import { bootRuntime } from '../../tests/setup/runtime'
import { newOwnerScope } from '../../tests/setup/scope'
import { insertTestMetaChannel, newTestAgent } from '../../tests/setup/tenant'
import * as metaWebhook from './webhooks.meta'

// The whole process as the server boots it, with this route served over HTTP; deliveries are signed the way
// Meta signs them (over the raw bytes of its escaped-unicode JSON).
const APP = { appId: '5550001', appSecret: 'route-test-app-secret', verifyToken: 'route-verify-token' }
let runtime: Runtime
let graph: GraphFake
let model: OpenAiFake
let http: Awaited<ReturnType<typeof serveRoutes>>
let booted: Awaited<ReturnType<typeof bootRuntime>>
let url: string

beforeAll(async () => {
  ;[graph, model, http] = await Promise.all([
    startGraphFake(APP),
    startOpenAiFake(),
    serveRoutes([[/^\/webhooks\/meta$/, metaWebhook]]),
  ])
  url = `${http.url}/webhooks/meta`
  booted = await bootRuntime('meta-webhook', {
    PUBLIC_URL: http.url,
    // No Telegram long polling: test files share one PostgreSQL database, and it would poll their bots.
    TELEGRAM_UPDATES: 'webhook',
    LLM_BASE_URL: model.url,
    LLM_API_KEY: 'sk-test',
    META_APP_ID: APP.appId,
    META_APP_SECRET: APP.appSecret,
    META_VERIFY_TOKEN: APP.verifyToken,
    META_GRAPH_ROOT: graph.graphRoot,
  })
  runtime = booted.runtime
})
afterAll(async () => {
  await booted.close()
  await Promise.all([graph.close(), model.close(), http.close()])
})

/** A connected Facebook page with an agent; its token is one the Graph fake knows. */
async function newPage() {
  const scope = await newOwnerScope(runtime.database.db)
  const page = await insertTestMetaChannel(scope, runtime.config, 'facebook', graph)
  const agent = await newTestAgent(scope, { name: 'Page agent' })
  await assignAgent(scope, page.channelId, { agentId: agent.id })
  return { pageId: page.platformChannelId, channelId: page.channelId }
}

const delivery = (pageId: string, psid: string, text: string, mid = `m_${randomUUID()}`) =>
  messengerDelivery(pageId, messengerText(pageId, psid, text, mid))
const stored = (channelId: string) => messagesOf(runtime.database.db, channelId)
const allMessages = async () => (await runtime.database.db.select({ id: messages.id }).from(messages)).length
const jobCount = async () => (await runtime.boss.findJobs(REPLY_QUEUE)).length
const postRaw = (body: BodyInit, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })

describe('GET /webhooks/meta (the subscription handshake)', () => {
  const handshake = (query: Record<string, string>) => fetch(`${url}?${new URLSearchParams(query)}`)

  it('answers the challenge as plain text with our verify token', async () => {
    const response = await handshake({
      'hub.mode': 'subscribe',
      'hub.verify_token': APP.verifyToken,
      'hub.challenge': '1158201444',
    })
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('1158201444')
  })

  it.each([
    ['another token', { 'hub.mode': 'subscribe', 'hub.verify_token': 'guess', 'hub.challenge': '1' }],
    [
      'another mode',
      { 'hub.mode': 'unsubscribe', 'hub.verify_token': APP.verifyToken, 'hub.challenge': '1' },
    ],
    ['no challenge', { 'hub.mode': 'subscribe', 'hub.verify_token': APP.verifyToken }],
  ])('refuses %s with 403', async (_, query) => {
    const response = await handshake(query)
    expect(response.status).toBe(403)
    expect(await response.text()).not.toContain('1')
  })
})

describe('POST /webhooks/meta', () => {
  it('takes a signed Messenger delivery over HTTP, answers 200, and the page answers through the Send API', async () => {
    const page = await newPage()
    const psid = String(randomInt(1e9, 9e9))
    // Non-ASCII text: Meta escapes it, and the signature covers the escaped bytes.
    const response = await deliverSignedWebhook(
      url,
      delivery(page.pageId, psid, 'Olá, está aberto?'),
      APP.appSecret,
    )
    expect(response.status).toBe(200)
    await waitForSettled(runtime.database.db, page.channelId)
    await waitFor(
      async () => graph.messages.filter((m) => m.to === psid && m.text),
      (sent) => sent.length === 1,
    )
    expect(graph.messages.find((m) => m.to === psid && m.text)).toMatchObject({
      from: page.pageId,
      text: 'Echo: Olá, está aberto?',
    })
  })

  it('takes the same delivery three times at once as one message and one answer', async () => {
    const page = await newPage()
    const psid = String(randomInt(1e9, 9e9))
    const body = delivery(page.pageId, psid, 'Just once', `m_${randomUUID()}`)
    const statuses = await Promise.all([1, 2, 3].map(() => deliverSignedWebhook(url, body, APP.appSecret)))
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 200])
    await waitForSettled(runtime.database.db, page.channelId)
    expect((await stored(page.channelId)).map((m) => [m.direction, m.status])).toEqual([
      ['inbound', 'replied'],
      ['outbound', 'sent'],
    ])
  })

  describe('refusals store and enqueue nothing', () => {
    async function refused(send: () => Promise<Response>, status: number) {
      const [rows, jobs] = [await allMessages(), await jobCount()]
      const response = await send()
      expect(response.status).toBe(status)
      expect(await allMessages()).toBe(rows)
      expect(await jobCount()).toBe(jobs)
      return response
    }

    it('401 without a signature, with a forged one, or signed with another secret', async () => {
      const page = await newPage()
      const raw = metaJson(delivery(page.pageId, '1', 'forged'))
      await refused(() => postRaw(raw, {}), 401)
      await refused(() => postRaw(raw, { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` }), 401)
      const other = signMetaPayload(raw, 'another-app-secret')
      const response = await refused(() => postRaw(raw, { 'x-hub-signature-256': other }), 401)
      expect(await response.json()).toEqual({ ok: false, message: 'Invalid signature' })
      // The signature covers the bytes: the same JSON re-serialized differently does not pass.
      const signed = signMetaPayload(raw, APP.appSecret)
      await refused(() => postRaw(`${raw} `, { 'x-hub-signature-256': signed }), 401)
    })

    it('400 for malformed JSON or a payload that is not Meta’s, correctly signed', async () => {
      await refused(() => deliverSignedWebhook(url, '{"object": "page", "entry": [', APP.appSecret), 400)
      await refused(() => deliverSignedWebhook(url, { hello: 'world' }, APP.appSecret), 400)
    })

    it('404 when no page or number of the delivery is connected', async () => {
      const ghost = String(randomInt(1e9, 9e9))
      await refused(() => deliverSignedWebhook(url, delivery(ghost, '1', 'nobody home'), APP.appSecret), 404)
    })

    it('413 for a 2 MB body, before its signature is even checked', async () => {
      const page = await newPage()
      const big = { ...delivery(page.pageId, '1', 'x'), padding: 'x'.repeat(2 * 1024 * 1024) }
      await refused(() => deliverSignedWebhook(url, big, APP.appSecret), 413)
    })
  })
})
