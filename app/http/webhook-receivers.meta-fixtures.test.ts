import { BEHAVIOUR_TEXTS } from '~/lib/agents/behaviour'
import { REPLY_FAILURES } from '~/lib/conversations/reply-pipeline'
import { randomInt, randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversations, messages } from '~/db/schema'
import { CONVERSATION_RESUME_QUEUE } from '~/jobs/queues.server'
import { PLATFORM_REPLY_SENDERS } from '~/lib/conversations/conversations'
import { assignAgent } from '~/services/channels/channels.server'
import { deliverSignedWebhook, startGraphFake, type GraphFake } from '../../tests/fakes/graph-server'
import { startOpenAiFake, type OpenAiFake } from '../../tests/fakes/openai-server'
import {
  messengerText,
  pageDelivery,
  wabaDelivery,
  whatsappChange,
  whatsappText,
} from '../../tests/fixtures/meta/deliveries'
import { MESSENGER_FIXTURES, type FixtureOutcome } from '../../tests/fixtures/meta/messenger'
import { WHATSAPP_FIXTURES } from '../../tests/fixtures/meta/whatsapp'
import { messagesOf, waitFor, waitForSettled } from '../../tests/setup/pipeline'
import { serveNode } from '../../tests/setup/route-server'
import { bootRuntime } from '../../tests/setup/runtime'
import { newOwnerScope } from '../../tests/setup/scope'
import { insertTestMetaChannel, newTestAgent } from '../../tests/setup/tenant'
import { createLogger } from '~/utils/logger.server'
import { getMetrics } from '~/utils/metrics.server'
import type { Runtime } from '~/runtime/runtime.server'
import { callFromNode, receiveMetaCall } from '~/http/webhook-receivers.server'

// Issue 14: every Messenger and WhatsApp event of Meta's reference pages (tests/fixtures/meta), delivered in one
// signed batch beside a customer's text, through the production door (the receivers on Node's request) over
// HTTP, with the whole process behind it: the reply worker, the model fake, and a Graph fake that refuses any call
// without appsecret_proof. The text is answered exactly once, even when Meta delivers the batch again; no event
// is refused; each event does what its kind does (answered, stored unanswered, a receipt, skipped and counted, or
// a person's reply on the platform: stored as the page's or number's message, pausing the AI of its conversation).
const APP = { appId: '5550014', appSecret: 'fixture-app-secret' }
let runtime: Runtime
let graph: GraphFake
let model: OpenAiFake
let http: Awaited<ReturnType<typeof serveNode>>
let booted: Awaited<ReturnType<typeof bootRuntime>>
let url: string
const logs: string[] = []

beforeAll(async () => {
  ;[graph, model, http] = await Promise.all([
    startGraphFake({ ...APP, requireAppSecretProof: true }),
    startOpenAiFake(),
    serveNode((req, res) => {
      receiveMetaCall(runtime, callFromNode(req)).then(
        ({ status, body }) => res.writeHead(status, { 'content-type': 'application/json' }).end(body),
        () => res.writeHead(500).end(),
      )
    }),
  ])
  url = `${http.url}/webhooks/meta`
  // The process's logger, read here: skipped events are logged by kind, never with what they say.
  globalThis.__replypilotLogger = createLogger({ level: 'info', sink: (line) => logs.push(line) })
  booted = await bootRuntime('meta-fixtures', {
    PUBLIC_URL: http.url,
    TELEGRAM_UPDATES: 'webhook',
    LLM_BASE_URL: model.url,
    LLM_API_KEY: 'sk-test',
    META_APP_ID: APP.appId,
    META_APP_SECRET: APP.appSecret,
    META_GRAPH_ROOT: graph.graphRoot,
    LOG_LEVEL: 'info',
  })
  runtime = booted.runtime
}, 90_000)
afterAll(async () => {
  await booted.close()
  globalThis.__replypilotLogger = undefined
  await Promise.all([graph.close(), model.close(), http.close()])
})

const person = () => String(randomInt(1_000_000_000, 9_000_000_000))

/** A connected page or number with an agent; its token is one the Graph fake knows. */
async function newChannel(platform: 'facebook' | 'whatsapp') {
  const scope = await newOwnerScope(runtime.database.db)
  const channel = await insertTestMetaChannel(scope, runtime.config, platform, graph)
  const agent = await newTestAgent(scope, { name: 'Fixture agent' })
  await assignAgent(scope, channel.channelId, { agentId: agent.id })
  return channel
}

const answersTo = (to: string) => graph.messages.filter((m) => m.to === to && m.text !== undefined)
const messagesWith = (channelId: string, platformMessageId: string) =>
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
  channel: { channelId: string; platform: 'facebook' | 'whatsapp' },
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
  const own = await messagesWith(channel.channelId, fixture.messageId)
  if (fixture.outcome === 'paused') {
    expect(own.map((m) => [m.direction, m.status, m.senderName])).toEqual([
      ['outbound', 'sent', PLATFORM_REPLY_SENDERS[channel.platform]],
    ])
    expect(answersTo(fixture.sender)).toEqual([])
    const [conversation] = await runtime.database.db
      .select()
      .from(conversations)
      .where(
        and(eq(conversations.channelId, channel.channelId), eq(conversations.platformChatId, fixture.sender)),
      )
    expect(conversation).toMatchObject({ state: 'paused', aiPausedAt: expect.any(Date) })
    expect(conversation.aiPausedUntil?.getTime()).toBeGreaterThan(Date.now())
    // Its hand-back is on the queue once, though Meta delivered the echo again.
    const { id: conversationId } = conversation
    const jobs = await runtime.boss.findJobs(CONVERSATION_RESUME_QUEUE, { data: { conversationId } })
    expect(jobs.map((job) => job.startAfter)).toEqual([conversation.aiPausedUntil])
  } else if (fixture.outcome === 'answered') {
    expect(own.map((m) => m.status)).toEqual(['replied'])
    expect(answersTo(fixture.sender)).toHaveLength(1)
  } else if (fixture.outcome === 'text-only') {
    expect(own.map((m) => [m.status, m.failureReason])).toEqual([['received', REPLY_FAILURES.unreadable]])
    expect(own[0].kind).not.toBe('text')
    expect(answersTo(fixture.sender).map((m) => m.text)).toEqual([BEHAVIOUR_TEXTS.unreadableMessage])
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
    const event = fixture.event({ pageId, psid: sender, mid, appId: APP.appId })
    const text = messengerText(pageId, customer, 'Hi, is the shop open today?')
    // The fixture first, in its own entry and beside the text in the same one: Meta batches both ways.
    const batch = pageDelivery({ pageId, messaging: [event] }, { pageId, messaging: [event, text] })
    const channel = { ...page, platform: 'facebook' } as const
    await deliverBeside(batch, channel, customer, { outcome: fixture.outcome, sender, messageId: mid })
  })

  it('skips malformed echoes (no mid, no recipient) with 200, and answers the text beside them', async () => {
    const page = await newChannel('facebook')
    const [customer, sender, mid] = [person(), person(), `m_${randomUUID()}`]
    const pageId = page.platformChannelId
    const echo = { is_echo: true, text: 'Sent from the Page inbox' }
    const noMid = { sender: { id: pageId }, recipient: { id: sender }, timestamp: Date.now(), message: echo }
    const noRecipient = { sender: { id: pageId }, timestamp: Date.now(), message: { ...echo, mid } }
    const text = messengerText(pageId, customer, 'Hi, is the shop open today?')
    const batch = pageDelivery({ pageId, messaging: [noMid, noRecipient, text] })
    const channel = { ...page, platform: 'facebook' } as const
    await deliverBeside(batch, channel, customer, { outcome: 'skipped', sender, messageId: mid })
  })

  it('applies a delivery receipt without timestamp (the reference page’s own shape) to our answer', async () => {
    const page = await newChannel('facebook')
    const customer = person()
    const pageId = page.platformChannelId
    const text = (body: string) => messengerText(pageId, customer, body)
    const delivery = (messaging: unknown[]) => pageDelivery({ pageId, messaging, time: 1 })
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
    const change = (value: Record<string, unknown>, field?: string) =>
      whatsappChange(number.platformChannelId, value, undefined, field)
    const text = {
      contacts: [{ profile: { name: 'Customer' }, wa_id: customer }],
      messages: [whatsappText(customer, 'Hi, is the shop open today?', undefined, timestamp)],
    }
    const batch = wabaDelivery('WHATSAPP_BUSINESS_ACCOUNT_ID', [
      change(fixture.value({ waId: sender, wamid, timestamp }), fixture.field),
      change(text),
    ])
    const channel = { ...number, platform: 'whatsapp' } as const
    await deliverBeside(batch, channel, customer, { outcome: fixture.outcome, sender, messageId: wamid })
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
    expect(count('facebook', 'own_echo')).toBeGreaterThan(0)
  })
})
