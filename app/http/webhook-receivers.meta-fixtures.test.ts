import { randomBytes, randomInt, randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messages } from '~/db/schema'
import { createAgentSchema } from '~/lib/agent-schemas'
import { createAgent } from '~/services/agents/agents.server'
import { assignAgent, insertChannel } from '~/services/channels/channels.server'
import { deliverSignedWebhook, startGraphFake, type GraphFake } from '../../tests/fakes/graph-server'
import { startOpenAiFake, type OpenAiFake } from '../../tests/fakes/openai-server'
import { MESSENGER_FIXTURES, type FixtureOutcome } from '../../tests/fixtures/meta/messenger'
import { WHATSAPP_FIXTURES } from '../../tests/fixtures/meta/whatsapp'
import { messagesOf, waitFor, waitForSettled } from '../../tests/setup/pipeline'
import { newOwnerScope } from '../../tests/setup/scope'
import { createLogger } from '~/utils/logger.server'
import { getMetrics } from '~/utils/metrics.server'
import { closeRuntime, getRuntime, type Runtime } from '~/runtime/runtime.server'
import { callFromNode, receiveMetaCall } from '~/http/webhook-receivers.server'

// Issue 14: every Messenger and WhatsApp event of Meta's reference pages (tests/fixtures/meta), delivered in one
// signed batch beside a customer's text, through the production door (the receivers on Node's request) over
// HTTP, with the whole process behind it: the reply worker, the model fake, and a Graph fake that refuses any call
// without appsecret_proof. The text is answered exactly once, even when Meta delivers the batch again; no event
// is refused; each event does what its kind does (answered, stored unanswered, a receipt, or skipped and counted).
const APP = { appId: '5550014', appSecret: 'fixture-app-secret' }
let runtime: Runtime
let graph: GraphFake
let model: OpenAiFake
let server: Server
let url: string
const logs: string[] = []
const savedEnv = { ...process.env }

beforeAll(async () => {
  ;[graph, model] = await Promise.all([
    startGraphFake({ ...APP, requireAppSecretProof: true }),
    startOpenAiFake(),
  ])
  server = createServer((req, res) => {
    receiveMetaCall(runtime, callFromNode(req)).then(
      ({ status, body }) => res.writeHead(status, { 'content-type': 'application/json' }).end(body),
      () => res.writeHead(500).end(),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  url = `http://127.0.0.1:${address.port}/webhooks/meta`
  Object.assign(process.env, {
    DATABASE_URL: process.env.DATABASE_URL || 'memory://',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'replypilot-meta-fixtures-')),
    PUBLIC_URL: `http://127.0.0.1:${address.port}`,
    TELEGRAM_UPDATES: 'webhook',
    LLM_BASE_URL: model.url,
    LLM_API_KEY: 'sk-test',
    META_APP_ID: APP.appId,
    META_APP_SECRET: APP.appSecret,
    META_GRAPH_ROOT: graph.graphRoot,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'info',
  })
  // The process's logger, read here: skipped events are logged by kind, never with what they say.
  globalThis.__replypilotLogger = createLogger({ level: 'info', sink: (line) => logs.push(line) })
  runtime = await getRuntime({ queueSchema: `pgboss_${randomUUID().replaceAll('-', '').slice(0, 12)}` })
}, 90_000)
afterAll(async () => {
  await closeRuntime()
  globalThis.__replypilotLogger = undefined
  await Promise.all([graph.close(), model.close(), new Promise((resolve) => server.close(resolve))])
  process.env = savedEnv
})

const person = () => String(randomInt(1_000_000_000, 9_000_000_000))

/** A connected page or number with an agent; its token is one the Graph fake knows. */
async function newChannel(platform: 'facebook' | 'whatsapp') {
  const { db } = runtime.database
  const scope = await newOwnerScope(db)
  const platformChannelId = String(randomInt(1_000_000_000, 9_000_000_000))
  const token = `EAA${randomBytes(16).toString('hex')}`
  if (platform === 'facebook') {
    const pages = [{ id: platformChannelId, name: 'Shop', accessToken: token }]
    graph.seed({ users: { [`u-${token}`]: { id: person(), pages } } })
  } else {
    const phone = { verified_name: 'Shop', display_phone_number: '+1 555 0100', wabaId: person() }
    graph.seed({ businessTokens: [token], phoneNumbers: { [platformChannelId]: phone } })
  }
  const channel = await insertChannel(scope, runtime.config, {
    platformName: platform,
    channelType: platform === 'facebook' ? 'facebook_page' : 'whatsapp_number',
    platformChannelId,
    accessToken: token,
    metadata: { name: 'Shop' },
  })
  const agent = await createAgent(
    scope,
    createAgentSchema.parse({
      name: 'Fixture agent',
      readableId: `fixture-${randomUUID().slice(0, 8)}`,
      modelType: 'simple',
      creativityLevel: 0.3,
      systemPrompt: 'Answer briefly.',
    }),
  )
  await assignAgent(scope, channel.id, { agentId: agent.id })
  return { platformChannelId, channelId: channel.id }
}

const answersTo = (to: string) => graph.messages.filter((m) => m.to === to && m.text !== undefined)
const inboundWith = (channelId: string, platformMessageId: string) =>
  runtime.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.channelId, channelId), eq(messages.platformMessageId, platformMessageId)))

async function skippedCount() {
  const { values } = await getMetrics().webhookEventsSkipped.get()
  return values.reduce((sum, { value }) => sum + value, 0)
}

/**
 * Delivers the batch twice (Meta's redelivery), then checks: 200 both times; the customer's text answered exactly
 * once; the fixture's own effect by its outcome.
 */
async function deliverBeside(
  batch: unknown,
  channel: { channelId: string },
  customer: string,
  fixture: { outcome: FixtureOutcome; sender: string; messageId: string },
) {
  const skippedBefore = await skippedCount()
  const first = await deliverSignedWebhook(url, batch, APP.appSecret)
  expect(first.status).toBe(200)
  await waitFor(
    async () => answersTo(customer).length,
    (n) => n === 1,
  )
  await waitForSettled(runtime.database.db, channel.channelId)
  const again = await deliverSignedWebhook(url, batch, APP.appSecret)
  expect(again.status).toBe(200)
  await waitForSettled(runtime.database.db, channel.channelId)

  expect(answersTo(customer).map((m) => m.text)).toEqual(['Echo: Hi, is the shop open today?'])
  const own = await inboundWith(channel.channelId, fixture.messageId)
  if (fixture.outcome === 'answered') {
    expect(own.map((m) => m.status)).toEqual(['replied'])
    expect(answersTo(fixture.sender)).toHaveLength(1)
  } else if (fixture.outcome === 'stored') {
    expect(own.map((m) => m.status)).toEqual(['ignored'])
    expect(answersTo(fixture.sender)).toEqual([])
  } else {
    expect(own).toEqual([])
    expect(answersTo(fixture.sender)).toEqual([])
  }
  if (fixture.outcome === 'skipped') expect(await skippedCount()).toBeGreaterThanOrEqual(skippedBefore + 2)
  const inbound = await messagesOf(runtime.database.db, channel.channelId, 'inbound')
  expect(inbound.filter((m) => m.senderId === customer)).toHaveLength(1)
}

describe('Messenger events from Meta’s reference pages, each beside a customer’s text', () => {
  it.each(MESSENGER_FIXTURES)('$name ($source): $outcome', async (fixture) => {
    const page = await newChannel('facebook')
    const [customer, sender, mid] = [person(), person(), `m_${randomUUID()}`]
    const pageId = page.platformChannelId
    const event = fixture.event({ pageId, psid: sender, mid })
    const text = {
      sender: { id: customer },
      recipient: { id: pageId },
      timestamp: Date.now(),
      message: { mid: `m_${randomUUID()}`, text: 'Hi, is the shop open today?' },
    }
    // The fixture first, in its own entry and beside the text in the same one: Meta batches both ways.
    const batch = {
      object: 'page',
      entry: [
        { id: pageId, time: Date.now(), messaging: [event] },
        { id: pageId, time: Date.now(), messaging: [event, text] },
      ],
    }
    await deliverBeside(batch, page, customer, { outcome: fixture.outcome, sender, messageId: mid })
  })

  it('applies a delivery receipt without timestamp (the reference page’s own shape) to our answer', async () => {
    const page = await newChannel('facebook')
    const customer = person()
    const pageId = page.platformChannelId
    const text = (body: string) => ({
      sender: { id: customer },
      recipient: { id: pageId },
      timestamp: Date.now(),
      message: { mid: `m_${randomUUID()}`, text: body },
    })
    const delivery = (messaging: unknown[]) => ({
      object: 'page',
      entry: [{ id: pageId, time: 1, messaging }],
    })
    expect((await deliverSignedWebhook(url, delivery([text('First')]), APP.appSecret)).status).toBe(200)
    await waitForSettled(runtime.database.db, page.channelId)
    const [answer] = await messagesOf(runtime.database.db, page.channelId, 'outbound')
    const receipt = {
      sender: { id: customer },
      recipient: { id: pageId },
      delivery: { mids: [answer.platformMessageId], watermark: Date.now() },
    }
    const response = await deliverSignedWebhook(url, delivery([receipt, text('Second')]), APP.appSecret)
    expect(response.status).toBe(200)
    await waitForSettled(runtime.database.db, page.channelId)
    const outbound = await messagesOf(runtime.database.db, page.channelId, 'outbound')
    expect(outbound.map((m) => m.status)).toEqual(['delivered', 'sent'])
    // A receipt with only its watermark (no mids) moves every answer sent up to it.
    const watermark = {
      sender: { id: customer },
      recipient: { id: pageId },
      delivery: { watermark: Date.now() },
    }
    expect((await deliverSignedWebhook(url, delivery([watermark]), APP.appSecret)).status).toBe(200)
    const after = await messagesOf(runtime.database.db, page.channelId, 'outbound')
    expect(after.map((m) => m.status)).toEqual(['delivered', 'delivered'])
  })
})

describe('WhatsApp payloads from Meta’s examples, each beside a customer’s text', () => {
  it.each(WHATSAPP_FIXTURES)('$name ($source): $outcome', async (fixture) => {
    const number = await newChannel('whatsapp')
    const [customer, sender, wamid] = [person(), person(), `wamid.${randomUUID()}`]
    const timestamp = String(Math.floor(Date.now() / 1000))
    const metadata = { display_phone_number: '15550100', phone_number_id: number.platformChannelId }
    const change = (value: Record<string, unknown>) => ({
      value: { messaging_product: 'whatsapp', metadata, ...value },
      field: 'messages',
    })
    const text = {
      contacts: [{ profile: { name: 'Customer' }, wa_id: customer }],
      messages: [
        {
          from: customer,
          id: `wamid.${randomUUID()}`,
          timestamp,
          text: { body: 'Hi, is the shop open today?' },
          type: 'text',
        },
      ],
    }
    const batch = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'WHATSAPP_BUSINESS_ACCOUNT_ID',
          changes: [change(fixture.value({ waId: sender, wamid, timestamp })), change(text)],
        },
      ],
    }
    await deliverBeside(batch, number, customer, { outcome: fixture.outcome, sender, messageId: wamid })
  })
})

describe('what is skipped', () => {
  it('is logged by kind and reason, never with what the event said', () => {
    const lines = logs.filter((line) => line.includes('webhook events skipped'))
    expect(lines.length).toBeGreaterThan(0)
    const kinds = new Set(
      lines.flatMap((line) => JSON.parse(line).events.map((e: { kind: string }) => e.kind)),
    )
    expect([...kinds]).toEqual(expect.arrayContaining(['echo', 'reaction', 'referral', 'optin', 'errors']))
    for (const line of lines) {
      expect(line).not.toMatch(/Rate limit hit|REF_DATA|TITLE|NOTIFICATION-MESSAGES-TOKEN/)
    }
  })

  it('counts them in /metrics by platform and reason', async () => {
    const { values } = await getMetrics().webhookEventsSkipped.get()
    const count = (platform: string, reason: string) =>
      values.find((v) => v.labels.platform === platform && v.labels.reason === reason)?.value ?? 0
    expect(count('facebook', 'unsupported')).toBeGreaterThan(0)
    expect(count('whatsapp', 'unsupported')).toBeGreaterThan(0)
  })
})
