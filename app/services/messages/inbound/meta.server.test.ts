import { BEHAVIOUR_TEXTS } from '~/lib/agents/behaviour'
import { randomInt } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { channels, conversations, messages } from '~/db/schema'
import type { ReplyQueue } from '~/services/messages/ingest/reply-queue.server'
import { PLATFORM_TEXT_LIMITS } from '~/lib/conversations/reply-pipeline'
import { isAppError } from '~/utils/errors'
import { getMetrics } from '~/utils/metrics.server'
import {
  META_TEST_APP,
  messagesOf,
  startPipeline,
  waitFor,
  waitForSettled,
  type Pipeline,
  type TestMetaChannel,
} from '../../../../tests/setup/pipeline'
import { platformReplies } from '~/services/conversations/platform-reply.server'
import { receiveMetaWebhook } from './meta.server'

// Meta deliveries handed to the receiving service, answered by this process's reply worker through the Graph fake.
let p: Pipeline
beforeAll(async () => {
  p = await startPipeline()
})
afterAll(async () => {
  await p.close()
})

const receive = (body: unknown) =>
  receiveMetaWebhook({
    db: p.db,
    boss: p.boss,
    body,
    appId: META_TEST_APP.appId,
    personReplies: platformReplies(p.db),
  })
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

function whatsappChange(number: TestMetaChannel, value: Record<string, unknown>, field = 'messages') {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'waba',
        changes: [
          {
            field,
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
    expect(result).toEqual({
      stored: 3,
      personReplies: 0,
      duplicates: 0,
      statuses: 0,
      ignored: 0,
      skipped: 0,
    })

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

  it('keeps attachments and postbacks apart: a photo gets the "text only" message, a tapped button is answered', async () => {
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
    // The echo of our own send (our app's id) is skipped: it neither stores nor pauses anything.
    const echo = {
      sender: { id: page.platformChannelId },
      recipient: { id: psid },
      timestamp: Date.now(),
      message: { mid: mid(), text: 'Our answer', is_echo: true, app_id: Number(META_TEST_APP.appId) },
    }
    expect(await receive(pageDelivery({ page, messaging: [photo, postback, echo] }))).toMatchObject({
      stored: 2,
    })
    await waitForSettled(p.db, page.channelId)
    const inbound = await messagesOf(p.db, page.channelId, 'inbound')
    expect(inbound.map((m) => [m.text, m.kind, m.status])).toEqual([
      ['[photo]', 'photo', 'received'],
      ['Opening hours', 'text', 'replied'],
    ])
    // The button's prompt holds the photo before it (as "[photo]"): one turn of the customer's.
    expect(sentTo(psid).map((m) => m.text)).toEqual([
      BEHAVIOUR_TEXTS.unreadableMessage,
      'Echo: [photo]\nOpening hours',
    ])
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

  it('answers button replies; a photo with a caption and a voice note get the "text only" message once per burst', async () => {
    const number = await p.newMetaChannel('whatsapp', { behaviour: { burstWaitSeconds: 1 } })
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
          { ...base, id: `wamid.ptt${Date.now()}`, type: 'audio', audio: { id: 'media2', voice: true } },
        ],
      }),
    )
    await waitForSettled(p.db, number.channelId)
    await receive(
      whatsappChange(number, {
        messages: [
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
    expect(inbound.map((m) => [m.text, m.kind, m.status])).toEqual([
      ['[photo] my receipt', 'photo', 'received'],
      ['[voice note]', 'voice', 'received'],
      ['Yes please', 'text', 'replied'],
    ])
    expect(sentTo(from).map((m) => m.text)).toEqual([BEHAVIOUR_TEXTS.unreadableMessage, 'Echo: Yes please'])
  })
})

describe('replies a person wrote on the platform (echoes)', () => {
  /** The hand-back jobs the receiver asked for. */
  function scheduler() {
    const calls: { conversationId: string; at: Date }[] = []
    const scheduleResume = async (conversationId: string, at: Date) => void calls.push({ conversationId, at })
    return { calls, scheduleResume }
  }
  const receiveWith = (body: unknown, scheduleResume: (id: string, at: Date) => Promise<void>) =>
    receiveMetaWebhook({
      db: p.db,
      boss: p.boss,
      body,
      appId: META_TEST_APP.appId,
      personReplies: platformReplies(p.db, scheduleResume),
    })

  const messengerEcho = (page: TestMetaChannel, psid: string, text: string, appId?: number, id = mid()) => ({
    sender: { id: page.platformChannelId },
    recipient: { id: psid },
    timestamp: Date.now(),
    message: { is_echo: true, ...(appId === undefined ? {} : { app_id: appId }), mid: id, text },
  })
  const whatsappEcho = (to: string, body: string, id = `wamid.echo${Date.now()}${++wamids}`) => ({
    from: '15550100',
    to,
    id,
    timestamp: String(Math.floor(Date.now() / 1000)),
    type: 'text',
    text: { body },
  })

  async function conversationOf(channel: TestMetaChannel, chat: string) {
    const [row] = await p.db
      .select()
      .from(conversations)
      .where(and(eq(conversations.channelId, channel.channelId), eq(conversations.platformChatId, chat)))
    return row
  }
  async function setAutoResume(channel: TestMetaChannel, minutes: number) {
    await p.db.update(channels).set({ autoResumeMinutes: minutes }).where(eq(channels.id, channel.channelId))
  }
  /** The pause runs `minutes` from the reply (the database's clock, read between `before` and `after`). */
  function expectHandBack(until: Date | null | undefined, minutes: number, before: number, after: number) {
    expect(until).toBeInstanceOf(Date)
    const at = until?.getTime() ?? 0
    expect(at).toBeGreaterThanOrEqual(before + minutes * 60_000 - 5_000)
    expect(at).toBeLessThanOrEqual(after + minutes * 60_000 + 5_000)
  }

  it.each([
    ['another app’s id (Meta Business Suite, a CRM)', 263902037430900],
    ['no app id (the Page inbox)', undefined],
  ])(
    'a Messenger echo with %s is stored as the page’s message and pauses the conversation',
    async (_, appId) => {
      const page = await p.newMetaChannel('facebook')
      await setAutoResume(page, 45)
      const psid = person()
      const { calls, scheduleResume } = scheduler()
      const echoMid = mid()
      const before = Date.now()
      const result = await receiveWith(
        pageDelivery({
          page,
          messaging: [messengerEcho(page, psid, 'I will check for you', appId, echoMid)],
        }),
        scheduleResume,
      )
      const after = Date.now()
      expect(result).toMatchObject({ stored: 0, personReplies: 1, duplicates: 0, skipped: 0 })

      const conversation = await conversationOf(page, psid)
      expect(conversation).toMatchObject({ state: 'paused', aiPausedBy: null })
      expectHandBack(conversation.aiPausedUntil, 45, before, after)
      expect(calls).toEqual([{ conversationId: conversation.id, at: conversation.aiPausedUntil }])
      expect(await messagesOf(p.db, page.channelId)).toEqual([
        expect.objectContaining({
          conversationId: conversation.id,
          direction: 'outbound',
          platformMessageId: echoMid,
          text: 'I will check for you',
          status: 'sent',
          senderId: page.platformChannelId,
          senderName: 'Page inbox',
          authorUserId: null,
          agentRunId: null,
          replyToMessageId: null,
        }),
      ])
      expect(conversation).toMatchObject({ lastMessageDirection: 'outbound', lastInboundAt: null })

      // The customer writes again: stored, left to the person, not answered by the AI.
      await receiveWith(
        pageDelivery({ page, messaging: [messengerText(page, psid, 'Thanks!')] }),
        scheduleResume,
      )
      const [inbound] = await messagesOf(p.db, page.channelId, 'inbound')
      expect(inbound).toMatchObject({
        status: 'received',
        failureReason: 'The AI is paused: a person is answering',
      })
      expect(sentTo(psid)).toEqual([])
    },
  )

  it('an echo of our own send (our app’s id) changes nothing, and is counted as such', async () => {
    const page = await p.newMetaChannel('facebook')
    const psid = person()
    const { calls, scheduleResume } = scheduler()
    const skippedBefore = await ownEchoesSkipped()
    const result = await receiveWith(
      pageDelivery({
        page,
        messaging: [messengerEcho(page, psid, 'Echo: hello', Number(META_TEST_APP.appId))],
      }),
      scheduleResume,
    )
    expect(result).toMatchObject({ stored: 0, personReplies: 0, skipped: 1 })
    expect(await ownEchoesSkipped()).toBe(skippedBefore + 1)
    expect(await conversationOf(page, psid)).toBeUndefined()
    expect(await messagesOf(p.db, page.channelId)).toEqual([])
    expect(calls).toEqual([])
  })

  it('an echo delivered again (and twice at once) is stored once and pauses once', async () => {
    const page = await p.newMetaChannel('facebook')
    const psid = person()
    const { calls, scheduleResume } = scheduler()
    const delivery = pageDelivery({ page, messaging: [messengerEcho(page, psid, 'On my way', undefined)] })
    const results = await Promise.all([
      receiveWith(delivery, scheduleResume),
      receiveWith(delivery, scheduleResume),
    ])
    const again = await receiveWith(delivery, scheduleResume)
    expect([...results, again].map((r) => [r.personReplies, r.duplicates]).sort()).toEqual([
      [0, 1],
      [0, 1],
      [1, 0],
    ])
    expect(await messagesOf(p.db, page.channelId, 'outbound')).toHaveLength(1)
    expect(calls).toHaveLength(1)
    // A later reply moves the hand-back on: it is another message.
    await receiveWith(
      pageDelivery({ page, messaging: [messengerEcho(page, psid, 'Done', undefined)] }),
      scheduleResume,
    )
    expect(calls).toHaveLength(2)
  })

  it('a WhatsApp Business app echo (smb_message_echoes) pauses the customer’s conversation', async () => {
    const number = await p.newMetaChannel('whatsapp', { agent: false })
    const waId = person()
    await receive(whatsappChange(number, { messages: [whatsappText(waId, 'Is my order ready?')] }))
    // The reply worker leaves it (no agent) before the echo comes: its status is asserted below.
    await waitForSettled(p.db, number.channelId)
    const { calls, scheduleResume } = scheduler()
    const echo = whatsappEcho(`+${waId}`, 'Yes, come by at 5')
    const before = Date.now()
    const result = await receiveWith(
      whatsappChange(number, { message_echoes: [echo] }, 'smb_message_echoes'),
      scheduleResume,
    )
    const after = Date.now()
    expect(result).toMatchObject({ personReplies: 1, skipped: 0 })

    // The `to` of the echo ("+<number>") is the customer's wa_id: the same conversation as their message.
    const conversation = await conversationOf(number, waId)
    expect(conversation.state).toBe('paused')
    expectHandBack(conversation.aiPausedUntil, 30, before, after)
    expect(calls).toEqual([{ conversationId: conversation.id, at: conversation.aiPausedUntil }])
    const rows = await messagesOf(p.db, number.channelId)
    expect(rows.map((m) => [m.conversationId, m.direction, m.text, m.status, m.senderName])).toEqual([
      [conversation.id, 'inbound', 'Is my order ready?', 'received', null],
      [conversation.id, 'outbound', 'Yes, come by at 5', 'sent', 'WhatsApp Business app'],
    ])
    expect(rows[1].platformMessageId).toBe(echo.id)
  })

  it('a customer’s text beside an echo in one delivery is stored and queued, then the echo pauses', async () => {
    const page = await p.newMetaChannel('facebook')
    const psid = person()
    // A stand-in queue: the job is recorded, not worked, so that the text's state is the receiver's alone.
    const sent: unknown[] = []
    const boss: ReplyQueue = {
      send: async (...args: unknown[]) => {
        sent.push(args[1])
        return 'job'
      },
    }
    const { calls, scheduleResume } = scheduler()
    const deliver = (...messaging: unknown[]) =>
      receiveMetaWebhook({
        db: p.db,
        boss,
        body: pageDelivery({ page, messaging }),
        appId: META_TEST_APP.appId,
        personReplies: platformReplies(p.db, scheduleResume),
      })
    // Meta's order puts the echo first; the text is stored and queued all the same (see receiveMetaWebhook).
    const result = await deliver(
      messengerEcho(page, psid, 'Hello from the team', undefined),
      messengerText(page, psid, 'Are you open on Sunday?'),
    )
    expect(result).toMatchObject({ stored: 1, personReplies: 1 })
    const [text] = await messagesOf(p.db, page.channelId, 'inbound')
    expect(text).toMatchObject({ text: 'Are you open on Sunday?', status: 'queued' })
    expect(sent).toEqual([{ messageId: text.id }])
    expect((await conversationOf(page, psid)).state).toBe('paused')
    expect(calls).toHaveLength(1)

    // Paused before the delivery: the next text is stored for the person, and no job is sent.
    await deliver(messengerText(page, psid, 'Hello?'))
    const [, next] = await messagesOf(p.db, page.channelId, 'inbound')
    expect(next).toMatchObject({ text: 'Hello?', status: 'received' })
    expect(sent).toHaveLength(1)
  })

  it('ignores the echoes of a page that is not connected here, as its other events', async () => {
    const page = await p.newMetaChannel('facebook', { agent: false })
    const ghost = { platformChannelId: person() } as TestMetaChannel
    const { calls, scheduleResume } = scheduler()
    const result = await receiveWith(
      pageDelivery(
        { page, messaging: [messengerText(page, person(), 'Known page')] },
        { page: ghost, messaging: [messengerEcho(ghost, person(), 'Elsewhere', undefined)] },
      ),
      scheduleResume,
    )
    expect(result).toMatchObject({ stored: 1, personReplies: 0, ignored: 1 })
    expect(calls).toEqual([])
  })

  it('skips malformed echoes one by one and stores the rest of the delivery', async () => {
    const page = await p.newMetaChannel('facebook', { agent: false })
    const number = await p.newMetaChannel('whatsapp', { agent: false })
    const psid = person()
    const { calls, scheduleResume } = scheduler()
    const echo = messengerEcho(page, psid, 'x', undefined)
    const noMid = { ...echo, message: { is_echo: true, text: 'no mid' } }
    const noRecipient = {
      sender: echo.sender,
      timestamp: echo.timestamp,
      message: { ...echo.message, mid: mid() },
    }
    const toThePage = {
      ...echo,
      recipient: { id: page.platformChannelId },
      message: { ...echo.message, mid: mid() },
    }
    const result = await receiveWith(
      pageDelivery({
        page,
        messaging: [noMid, noRecipient, toThePage, messengerText(page, psid, 'Still here')],
      }),
      scheduleResume,
    )
    expect(result).toMatchObject({ stored: 1, personReplies: 0, skipped: 3 })

    const { to: _, ...noTo } = whatsappEcho(person(), 'no to')
    const { id: __, ...noId } = whatsappEcho(person(), 'no id')
    const revoke = {
      ...whatsappEcho(person(), ''),
      type: 'revoke',
      revoke: { original_message_id: 'wamid.X' },
    }
    const whatsapp = await receiveWith(
      whatsappChange(number, { message_echoes: [noTo, noId, 'nope', revoke] }, 'smb_message_echoes'),
      scheduleResume,
    )
    expect(whatsapp).toMatchObject({ personReplies: 0, skipped: 4 })
    expect(calls).toEqual([])
    expect(await messagesOf(p.db, page.channelId, 'outbound')).toEqual([])
    expect(await messagesOf(p.db, number.channelId)).toEqual([])
  })
})

async function ownEchoesSkipped() {
  const { values } = await getMetrics().webhookEventsSkipped.get()
  return values.find((v) => v.labels.platform === 'facebook' && v.labels.reason === 'own_echo')?.value ?? 0
}

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
