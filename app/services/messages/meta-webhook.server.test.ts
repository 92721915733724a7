import { randomInt } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { channels, messages } from '~/db/schema'
import { PLATFORM_TEXT_LIMITS } from '~/lib/reply-pipeline'
import { isAppError } from '~/utils/errors'
import {
  messagesOf,
  startPipeline,
  waitFor,
  waitForSettled,
  type Pipeline,
  type TestMetaChannel,
} from '../../../tests/setup/pipeline'
import { receiveMetaWebhook } from './meta-webhook.server'

// Meta deliveries handed to the receiving service, answered by this process's reply worker through the Graph fake.
let p: Pipeline
beforeAll(async () => {
  p = await startPipeline()
})
afterAll(async () => {
  await p.close()
})

const receive = (body: unknown) => receiveMetaWebhook({ db: p.db, boss: p.boss, body })
const person = () => String(randomInt(1_000_000_000, 9_000_000_000))
let mids = 0
const mid = () => `m_${Date.now()}_${++mids}`

function messengerText(page: TestMetaChannel, psid: string, text: string, id = mid()) {
  return {
    sender: { id: psid },
    recipient: { id: page.platformChannelId },
    timestamp: Date.now(),
    message: { mid: id, text },
  }
}
const pageDelivery = (...entries: { page: TestMetaChannel; messaging: unknown[] }[]) => ({
  object: 'page',
  entry: entries.map(({ page, messaging }) => ({ id: page.platformChannelId, time: Date.now(), messaging })),
})

function whatsappChange(number: TestMetaChannel, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'waba',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550100', phone_number_id: number.platformChannelId },
              ...value,
            },
          },
        ],
      },
    ],
  }
}
let wamids = 0
const whatsappText = (from: string, body: string, id = `wamid.${Date.now()}${++wamids}`) => ({
  from,
  id,
  timestamp: String(Math.floor(Date.now() / 1000)),
  type: 'text',
  text: { body },
})

const sentTo = (to: string) => p.graph.messages.filter((m) => m.to === to && m.text !== undefined)

describe('Messenger', () => {
  it('answers every text of a batch of several entries through the Send API', async () => {
    const [first, second] = await Promise.all([p.newMetaChannel('facebook'), p.newMetaChannel('facebook')])
    const [ann, bob, cat] = [person(), person(), person()]
    const result = await receive(
      pageDelivery(
        {
          page: first,
          messaging: [messengerText(first, ann, 'Hi from Ann'), messengerText(first, bob, 'Hi from Bob')],
        },
        { page: second, messaging: [messengerText(second, cat, 'Hi from Cat')] },
      ),
    )
    expect(result).toEqual({ stored: 3, duplicates: 0, statuses: 0, ignored: 0, skipped: 0 })

    await waitFor(
      async () => [ann, bob, cat].map((id) => sentTo(id).length),
      (counts) => counts.every((n) => n === 1),
    )
    expect(sentTo(ann)[0]).toMatchObject({
      platform: 'messenger',
      from: first.platformChannelId,
      text: 'Echo: Hi from Ann',
      messagingType: 'RESPONSE',
    })
    expect(sentTo(cat)[0]).toMatchObject({ from: second.platformChannelId, text: 'Echo: Hi from Cat' })

    // Ann's and Bob's answers are stored in whichever order their replies finish: find Ann's by what it answers.
    const rows = await waitForSettled(p.db, first.channelId).then(() => messagesOf(p.db, first.channelId))
    const inbound = rows.find((m) => m.senderId === ann)
    const outbound = rows.find((m) => m.replyToMessageId !== null && m.replyToMessageId === inbound?.id)
    expect(inbound).toMatchObject({ direction: 'inbound', status: 'replied', senderId: ann })
    expect(outbound).toMatchObject({
      direction: 'outbound',
      status: 'sent',
      platformMessageId: sentTo(ann)[0].id,
    })
  })

  it('stores a redelivered message once and answers it once', async () => {
    const page = await p.newMetaChannel('facebook')
    const psid = person()
    const delivery = pageDelivery({ page, messaging: [messengerText(page, psid, 'Only once', 'm_once_1')] })
    const results = await Promise.all([receive(delivery), receive(delivery), receive(delivery)])
    expect(results.map((r) => r.stored).sort()).toEqual([0, 0, 1])
    await receive(delivery)
    await waitForSettled(p.db, page.channelId)
    expect(await messagesOf(p.db, page.channelId, 'inbound')).toHaveLength(1)
    await waitFor(
      async () => sentTo(psid).length,
      (n) => n === 1,
    )
  })

  it('splits a long answer at 2000 characters on word boundaries', async () => {
    const page = await p.newMetaChannel('facebook')
    const psid = person()
    const words = Array.from({ length: 700 }, (_, i) => `word${i}`).join(' ') // about 5,500 characters
    p.model.enqueue({ reply: words, match: 'Tell me everything' })
    await receive(pageDelivery({ page, messaging: [messengerText(page, psid, 'Tell me everything')] }))
    await waitForSettled(p.db, page.channelId)
    const parts = sentTo(psid).map((m) => m.text ?? '')
    expect(parts.length).toBe(3)
    expect(parts.every((part) => part.length <= PLATFORM_TEXT_LIMITS.facebook)).toBe(true)
    expect(parts.join(' ')).toBe(words)
  })

  it('keeps attachments and postbacks apart: a photo is stored unanswered, a tapped button is answered', async () => {
    const page = await p.newMetaChannel('facebook')
    const psid = person()
    const photo = {
      sender: { id: psid },
      recipient: { id: page.platformChannelId },
      timestamp: Date.now(),
      message: {
        mid: mid(),
        attachments: [{ type: 'image', payload: { url: 'https://example.com/a.jpg' } }],
      },
    }
    const postback = {
      sender: { id: psid },
      recipient: { id: page.platformChannelId },
      timestamp: Date.now(),
      postback: { mid: mid(), title: 'Opening hours', payload: 'HOURS' },
    }
    const echo = {
      sender: { id: page.platformChannelId },
      recipient: { id: psid },
      timestamp: Date.now(),
      message: { mid: mid(), text: 'Sent from the inbox', is_echo: true },
    }
    expect(await receive(pageDelivery({ page, messaging: [photo, postback, echo] }))).toMatchObject({
      stored: 2,
    })
    await waitForSettled(p.db, page.channelId)
    const inbound = await messagesOf(p.db, page.channelId, 'inbound')
    expect(inbound.map((m) => [m.text, m.status])).toEqual([
      ['', 'ignored'],
      ['Opening hours', 'replied'],
    ])
    expect(sentTo(psid).map((m) => m.text)).toEqual(['Echo: Opening hours'])
  })

  it('moves answers to delivered, then read, and never back', async () => {
    const page = await p.newMetaChannel('facebook')
    const psid = person()
    await receive(pageDelivery({ page, messaging: [messengerText(page, psid, 'Receipts please')] }))
    await waitForSettled(p.db, page.channelId)
    const [answer] = await messagesOf(p.db, page.channelId, 'outbound')
    const event = (extra: Record<string, unknown>) => ({
      sender: { id: psid },
      recipient: { id: page.platformChannelId },
      timestamp: Date.now(),
      ...extra,
    })
    const watermark = Date.now() + 1000
    await receive(
      pageDelivery({
        page,
        messaging: [event({ delivery: { mids: [answer.platformMessageId], watermark } })],
      }),
    )
    expect((await messagesOf(p.db, page.channelId, 'outbound'))[0].status).toBe('delivered')
    await receive(pageDelivery({ page, messaging: [event({ read: { watermark } })] }))
    expect((await messagesOf(p.db, page.channelId, 'outbound'))[0].status).toBe('read')
    await receive(
      pageDelivery({
        page,
        messaging: [event({ delivery: { mids: [answer.platformMessageId], watermark } })],
      }),
    )
    expect((await messagesOf(p.db, page.channelId, 'outbound'))[0].status).toBe('read')
  })

  it('stores without answering when the page has no agent', async () => {
    const page = await p.newMetaChannel('facebook', { agent: false })
    const psid = person()
    await receive(pageDelivery({ page, messaging: [messengerText(page, psid, 'Anyone there?')] }))
    const [stored] = await waitForSettled(p.db, page.channelId)
    expect(stored).toMatchObject({
      status: 'received',
      failureReason: 'No agent is assigned to this channel',
    })
    expect(sentTo(psid)).toEqual([])
  })

  it('marks the message failed and the channel in error when Graph says the page token is invalid', async () => {
    const page = await p.newMetaChannel('facebook')
    const psid = person()
    p.graph.enqueue(`${page.platformChannelId}/messages`, {
      status: 400,
      error: { code: 190, message: 'Error validating access token' },
    })
    p.graph.enqueue(`${page.platformChannelId}/messages`, {
      status: 400,
      error: { code: 190, message: 'Error validating access token' },
    })
    await receive(pageDelivery({ page, messaging: [messengerText(page, psid, 'Token trouble')] }))
    const [failed] = await waitForSettled(p.db, page.channelId)
    expect(failed.status).toBe('failed')
    const [channel] = await p.db.select().from(channels).where(eq(channels.id, page.channelId))
    expect(channel.status).toBe('error')
  })
})

describe('WhatsApp', () => {
  it('answers a text with a Cloud API text message and keeps the sender name', async () => {
    const number = await p.newMetaChannel('whatsapp')
    const from = person()
    await receive(
      whatsappChange(number, {
        contacts: [{ wa_id: from, profile: { name: 'Dana' } }],
        messages: [whatsappText(from, 'Do you ship to Lisbon?')],
      }),
    )
    await waitForSettled(p.db, number.channelId)
    expect(sentTo(from)).toEqual([
      expect.objectContaining({
        platform: 'whatsapp',
        from: number.platformChannelId,
        text: 'Echo: Do you ship to Lisbon?',
      }),
    ])
    const [inbound, answer] = await messagesOf(p.db, number.channelId)
    expect(inbound).toMatchObject({ senderName: 'Dana', status: 'replied' })
    expect(answer).toMatchObject({ status: 'sent', platformMessageId: sentTo(from)[0].id })
  })

  it('applies delivery statuses in order only, and a failure with its reason', async () => {
    const number = await p.newMetaChannel('whatsapp')
    const from = person()
    await receive(whatsappChange(number, { messages: [whatsappText(from, 'Status check')] }))
    await waitForSettled(p.db, number.channelId)
    const [answer] = await messagesOf(p.db, number.channelId, 'outbound')
    const status = (value: string, extra: Record<string, unknown> = {}) =>
      whatsappChange(number, {
        statuses: [
          { id: answer.platformMessageId, status: value, timestamp: '1', recipient_id: from, ...extra },
        ],
      })
    await receive(status('read'))
    await receive(status('delivered'))
    expect((await messagesOf(p.db, number.channelId, 'outbound'))[0].status).toBe('read')

    await receive(whatsappChange(number, { messages: [whatsappText(from, 'Another one')] }))
    await waitForSettled(p.db, number.channelId)
    const second = (await messagesOf(p.db, number.channelId, 'outbound'))[1]
    await receive(
      whatsappChange(number, {
        statuses: [
          {
            id: second.platformMessageId,
            status: 'failed',
            errors: [
              { code: 131047, title: 'Re-engagement message', message: 'More than 24 hours have passed' },
            ],
          },
        ],
      }),
    )
    const [, failed] = await messagesOf(p.db, number.channelId, 'outbound')
    expect(failed).toMatchObject({
      status: 'failed',
      failureReason: 'Re-engagement message: More than 24 hours have passed',
    })
  })

  it('answers button replies, keeps media captions unanswered', async () => {
    const number = await p.newMetaChannel('whatsapp')
    const from = person()
    const base = { from, timestamp: String(Math.floor(Date.now() / 1000)) }
    await receive(
      whatsappChange(number, {
        messages: [
          {
            ...base,
            id: `wamid.img${Date.now()}`,
            type: 'image',
            image: { id: 'media', caption: 'my receipt' },
          },
          {
            ...base,
            id: `wamid.btn${Date.now()}`,
            type: 'interactive',
            interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes please' } },
          },
        ],
      }),
    )
    await waitForSettled(p.db, number.channelId)
    const inbound = await messagesOf(p.db, number.channelId, 'inbound')
    expect(inbound.map((m) => [m.text, m.status])).toEqual([
      ['my receipt', 'ignored'],
      ['Yes please', 'replied'],
    ])
    expect(sentTo(from).map((m) => m.text)).toEqual(['Echo: Yes please'])
  })
})

describe('refusals', () => {
  const refusal = async (body: unknown) => {
    const before = await p.db.select({ id: messages.id }).from(messages)
    const error = await receive(body).then(
      () => undefined,
      (e: unknown) => e,
    )
    const after = await p.db.select({ id: messages.id }).from(messages)
    expect(after.length).toBe(before.length)
    return isAppError(error) ? error.code : error
  }

  it('refuses a delivery that names no connected page or number, storing nothing', async () => {
    const ghost = { platformChannelId: person() } as TestMetaChannel
    expect(
      await refusal(pageDelivery({ page: ghost, messaging: [messengerText(ghost, person(), 'Hello?')] })),
    ).toBe('NOT_FOUND')
  })

  it('refuses a delivery that is not Meta’s envelope (no object, or no entry list)', async () => {
    expect(await refusal({ entry: [] })).toBe('VALIDATION_ERROR')
    expect(await refusal({ object: 'page', entry: {} })).toBe('VALIDATION_ERROR')
    expect(await refusal({ object: 'page' })).toBe('VALIDATION_ERROR')
  })

  it('skips malformed entries and events one by one, and stores the rest of the batch', async () => {
    const page = await p.newMetaChannel('facebook', { agent: false })
    const psid = person()
    const noMid = { sender: { id: psid }, recipient: { id: page.platformChannelId }, message: { text: 'x' } }
    const result = await receive({
      object: 'page',
      entry: [
        { messaging: 'nope' },
        { id: page.platformChannelId, messaging: ['nope', noMid, messengerText(page, psid, 'Still here')] },
      ],
    })
    expect(result).toMatchObject({ stored: 1, skipped: 3 })
    expect(await receive({ object: 'whatsapp_business_account', entry: [{ id: 1 }] })).toMatchObject({
      stored: 0,
      skipped: 1,
    })
  })

  it('stores a message without its own timestamp at the entry’s time', async () => {
    const page = await p.newMetaChannel('facebook', { agent: false })
    const { timestamp: _, ...untimed } = messengerText(page, person(), 'When?')
    const time = Date.parse('2024-05-01T10:00:00Z')
    const body = { object: 'page', entry: [{ id: page.platformChannelId, time, messaging: [untimed] }] }
    expect(await receive(body)).toMatchObject({ stored: 1 })
    const [stored] = await messagesOf(p.db, page.channelId, 'inbound')
    expect(stored.platformSentAt).toEqual(new Date(time))
  })

  it('accepts and ignores other products and entries of pages that are not connected', async () => {
    expect(await receive({ object: 'instagram', entry: [{ id: '1', time: 1 }] })).toMatchObject({ stored: 0 })
    const page = await p.newMetaChannel('facebook', { agent: false })
    const ghost = { platformChannelId: person() } as TestMetaChannel
    const result = await receive(
      pageDelivery(
        { page, messaging: [messengerText(page, person(), 'Known page')] },
        { page: ghost, messaging: [messengerText(ghost, person(), 'Unknown page')] },
      ),
    )
    expect(result).toMatchObject({ stored: 1, ignored: 1 })
  })
})
