import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rowsOf } from '~/db/rows.server'
import {
  channels,
  conversationReads,
  conversations,
  memberships,
  messageMedia,
  messages,
  users,
} from '~/db/schema'
import { ATTACHMENT_TEXTS } from '~/lib/conversations/attachments'
import { makePdf } from '../../../tests/fakes/documents'
import { sha256Of } from '../../../tests/fakes/hash'
import { photo } from '../../../tests/fakes/photo'
import { getMessageFile } from './media.server'
import { CONVERSATION_TEXTS, labelsSchema, personReplyAvailability } from '~/lib/conversations/conversations'
import { REPLY_FAILURES } from '~/lib/conversations/reply-pipeline'
import { updateChannel } from '~/services/channels/channels.server'
import { ingestInbound } from '~/services/messages/ingest/ingest.server'
import {
  authenticateTelegramWebhook,
  receiveTelegramUpdate,
} from '~/services/messages/inbound/telegram.server'
import { replyToMessage } from '~/services/messages/reply/reply.server'
import { AppError } from '~/utils/errors'
import type { RecordedRequest } from '../../../tests/fakes/openai-server'
import {
  messagesOf,
  startPipeline,
  textUpdate,
  type Pipeline,
  type TestBot,
  type TestMetaChannel,
  waitFor,
} from '../../../tests/setup/pipeline'
import { newOwnerScope, newTestUser } from '../../../tests/setup/scope'
import { getConversation, listConversations, markConversationRead } from './inbox.server'
import { retryMessage, sendPersonReply, type PersonReplyDeps } from './person-reply.server'
import { pauseConversation, resumeConversation, resumeDueConversations } from './takeover.server'
import { resolveQuietConversations, setConversationStatus, wakeSnoozedConversations } from './status.server'
import { assignConversation, countViews } from './assignment.server'
import { listOrganizationLabels, setConversationLabels } from './labels.server'
import { getContact, setContactNotes } from './contact.server'
import { CONTACT_TEXTS, contactNotesSchema } from '~/lib/conversations/contact'
import { connectTestBot } from '../../../tests/setup/tenant'
import { telegramTextUpdate } from '../../../tests/fixtures/telegram'
import { handOver } from '~/services/messages/reply/queries.server'
import { leaveOrganization, updateOrganization } from '~/services/organizations/organizations.server'
import { requireOrganizationScope } from '~/services/organizations/scope.server'
import { ingestInboundBatch } from '~/services/messages/ingest/batch.server'
import { normalizeTelegramUpdate } from '~/services/messages/inbound/telegram.server'
import { telegramUpdateSchema } from '~/integrations/telegram/update.server'

// The inbox's services against the real database and the platform fakes over HTTP (no worker: replies are
// asked for one at a time).
let p: Pipeline
const scheduled: { conversationId: string; at: Date }[] = []
let deps: PersonReplyDeps
beforeAll(async () => {
  p = await startPipeline({ worker: false })
  deps = {
    telegram: p.deps.telegram,
    graph: p.deps.graph,
    encryptionKey: p.deps.encryptionKey,
    boss: p.boss,
    scheduleResume: async (conversationId, at) => void scheduled.push({ conversationId, at }),
  }
})
afterAll(async () => {
  await p.close()
})

let chats = 700_000
async function receive(bot: TestBot, text: string, chatId = ++chats) {
  const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
  await receiveTelegramUpdate({ db: p.db, boss: p.boss, channel, body: textUpdate(chatId, text) })
  const inbound = (await messagesOf(p.db, bot.channelId, 'inbound')).at(-1)
  if (!inbound) throw new Error('not stored')
  return { inbound, chatId, conversationId: inbound.conversationId }
}

let metaIds = 0
async function receiveMeta(channel: TestMetaChannel, text: string, chat = `cust-${++metaIds}`) {
  const result = await ingestInbound({
    db: p.db,
    boss: p.boss,
    message: {
      organizationId: channel.scope.organizationId,
      channelId: channel.channelId,
      platformChatId: chat,
      platformMessageId: `mid.${++metaIds}`,
      senderId: chat,
      senderName: null,
      text,
      kind: 'text' as const,
      answerable: true,
      platformSentAt: new Date(),
    },
  })
  const [row] = await p.db
    .select()
    .from(messages)
    .where(eq(messages.id, result.messageId ?? ''))
  return row
}

/** The reply jobs sent for a message. */
async function jobsFor(messageId: string) {
  const table = sql.raw(`"${p.jobs.schema}"."${p.jobs.table}"`)
  const query = sql`select count(*)::int as n from ${table} where data->>'messageId' = ${messageId}`
  return rowsOf<{ n: number }>(await p.db.execute(query))[0].n
}

const customerWroteAgo = (conversationId: string, hours: number) =>
  p.db
    .update(conversations)
    .set({ lastInboundAt: sql`now() - make_interval(hours => ${hours})` })
    .where(eq(conversations.id, conversationId))

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal')
    },
    (error: unknown) => {
      if (!(error instanceof AppError)) throw error
      return { code: error.code, message: error.message }
    },
  )

describe('the inbox list and view', () => {
  it("lists the organization's conversations newest first with the customer, the channel and the last message", async () => {
    const bot = await p.newBot()
    const first = await receive(bot, 'Where is my jacket?')
    const second = await receive(bot, 'Do you open on Sundays?')
    await replyToMessage(p.deps, first.inbound.id)

    const list = await listConversations(bot.scope, { page: 1, pageSize: 50 })
    expect(list.total).toBe(2)
    expect(list.items.map((c) => c.id)).toEqual([first.conversationId, second.conversationId])
    expect(list.items[0]).toMatchObject({
      customer: { name: 'Ann Lee', platformId: String(first.chatId) },
      channel: { id: bot.channelId, platformName: 'telegram' },
      lastMessage: { text: 'Echo: Where is my jacket?', direction: 'outbound' },
      state: 'ai',
    })
    expect(list.items[0].channel.name).toBe('Support') // the test bot's name, as the Channels screen shows it

    const view = await getConversation(bot.scope, first.conversationId)
    expect(view.messages.map((m) => [m.direction, m.text, m.status, m.author.kind])).toEqual([
      ['inbound', 'Where is my jacket?', 'replied', 'customer'],
      ['outbound', 'Echo: Where is my jacket?', 'sent', 'ai'],
    ])
    expect(view.messages[1].author).toMatchObject({ kind: 'ai', agentName: 'Helper' })
    expect(view.hasOlder).toBe(false)
  })

  it('lists the conversations that need a person first, however old their last message', async () => {
    const bot = await p.newBot()
    const needing = await receive(bot, 'I want a refund')
    const newer = await receive(bot, 'Hello')
    const newest = await receive(bot, 'Hi there')
    await p.db
      .update(conversations)
      .set({ attentionReason: 'The agent handed over: a refund', attentionAt: new Date() })
      .where(eq(conversations.id, needing.conversationId))
    const list = await listConversations(bot.scope, { page: 1, pageSize: 50 })
    expect(list.items.map((c) => [c.id, c.state])).toEqual([
      [needing.conversationId, 'needs_attention'],
      [newest.conversationId, 'ai'],
      [newer.conversationId, 'ai'],
    ])
    const pageTwo = await listConversations(bot.scope, { page: 2, pageSize: 2 })
    expect(pageTwo.items.map((c) => c.id)).toEqual([newer.conversationId])
  })

  it('filters by channel, state and words of the messages, and pages older messages', async () => {
    const bot = await p.newBot()
    const other = await p.newBot()
    const sundays = await receive(bot, 'Do you open on Sundays?')
    await receive(bot, 'Refund for order 42')
    const byWord = await listConversations(bot.scope, { q: 'sunday', page: 1, pageSize: 50 })
    expect(byWord.items.map((c) => c.id)).toEqual([sundays.conversationId])
    const byChannel = await listConversations(bot.scope, {
      channelId: other.channelId,
      page: 1,
      pageSize: 50,
    })
    expect(byChannel.items).toEqual([])
    await pauseConversation(bot.scope, sundays.conversationId, {}, deps.scheduleResume)
    const paused = await listConversations(bot.scope, { state: 'paused', page: 1, pageSize: 50 })
    expect(paused.items.map((c) => [c.id, c.state, c.aiPausedUntil])).toEqual([
      [sundays.conversationId, 'paused', null],
    ])

    for (let i = 0; i < 4; i++) await receive(bot, `line ${i}`, sundays.chatId)
    const latest = await getConversation(bot.scope, sundays.conversationId, { limit: 3 })
    expect(latest.messages.map((m) => m.text)).toEqual(['line 1', 'line 2', 'line 3'])
    expect(latest.hasOlder).toBe(true)
    const older = await getConversation(bot.scope, sundays.conversationId, {
      before: latest.messages[0].sequence,
      limit: 3,
    })
    expect(older.messages.map((m) => m.text)).toEqual(['Do you open on Sundays?', 'line 0'])
    expect(older.hasOlder).toBe(false)
  })

  it("searches the words of all of a conversation's messages, by prefix, the answers' too", async () => {
    const bot = await p.newBot()
    const refund = await receive(bot, 'I want a refund')
    await receive(bot, 'for order 42', refund.chatId)
    const other = await receive(bot, 'Do refunds take long?')
    await replyToMessage(p.deps, other.inbound.id)
    // Another organization's conversation with the same words is never found.
    await receive(await p.newBot(), 'A refund for my order please')
    const search = (q: string) => listConversations(bot.scope, { q, page: 1, pageSize: 50 })
    expect((await search('refund order')).items.map((c) => c.id)).toEqual([refund.conversationId])
    const refunds = await search('refund')
    expect(refunds.items.map((c) => c.id)).toEqual([other.conversationId, refund.conversationId])
    expect(refunds.total).toBe(2)
    expect((await search('echo')).items.map((c) => c.id)).toEqual([other.conversationId])
    expect((await search('REFUNDS')).items.map((c) => c.id)).toEqual([other.conversationId])
    expect((await search('efund')).total).toBe(0)

    // A long conversation's later words are found too: each message adds the words the conversation lacks.
    for (let part = 0; part < 4; part++) {
      const words = Array.from({ length: 1_000 }, (_, i) => `filler${part}n${i}`).join(' ')
      await receive(bot, words, refund.chatId)
    }
    await receive(bot, 'Zanzibar delivery?', refund.chatId)
    expect((await search('zanzibar refund')).items.map((c) => c.id)).toEqual([refund.conversationId])
  })

  it("never shows or changes another organization's conversation", async () => {
    const bot = await p.newBot()
    const { conversationId, inbound } = await receive(bot, 'private')
    const stranger = await newOwnerScope(p.db)
    expect((await listConversations(stranger, { page: 1, pageSize: 50 })).items).toEqual([])
    const notFound = { code: 'NOT_FOUND', message: CONVERSATION_TEXTS.notFound }
    expect(await refusal(getConversation(stranger, conversationId))).toEqual(notFound)
    expect(await refusal(pauseConversation(stranger, conversationId, {}, deps.scheduleResume))).toEqual(
      notFound,
    )
    expect(await refusal(resumeConversation(stranger, conversationId))).toEqual(notFound)
    expect(await refusal(sendPersonReply(stranger, deps, { conversationId, text: 'hi' }))).toEqual(notFound)
    expect(await refusal(retryMessage(stranger, deps, inbound.id))).toEqual({
      code: 'NOT_FOUND',
      message: CONVERSATION_TEXTS.messageNotFound,
    })
    expect(await refusal(getConversation(bot.scope, 'not-a-uuid'))).toEqual(notFound)
    const [row] = await p.db.select().from(conversations).where(eq(conversations.id, conversationId))
    expect(row.aiPausedAt).toBeNull()
    expect(p.telegram.sentMessages(bot.token)).toEqual([])
  })
})

describe('a person replying and taking over', () => {
  it('sends once per idempotency key, records the author and pauses the AI until the hand-back', async () => {
    const bot = await p.newBot()
    const { conversationId, chatId } = await receive(bot, 'I need a human')
    const reply = { conversationId, text: 'Hi, I am Sam from Acme', clientKey: 'compose-1' }
    const [one, two] = await Promise.all([
      sendPersonReply(bot.scope, deps, reply),
      sendPersonReply(bot.scope, deps, reply),
    ])
    const again = await sendPersonReply(bot.scope, deps, reply)
    expect([one.sentNow, two.sentNow].sort()).toEqual([false, true])
    expect(again).toMatchObject({ sentNow: false, message: { status: 'sent' } })
    expect(p.telegram.sentMessages(bot.token)).toEqual([
      expect.objectContaining({
        chat: expect.objectContaining({ id: chatId }),
        text: 'Hi, I am Sam from Acme',
      }),
    ])

    const view = await getConversation(bot.scope, conversationId)
    expect(view.messages.at(-1)).toMatchObject({
      direction: 'outbound',
      status: 'sent',
      author: { kind: 'person' },
    })
    expect(view.state).toBe('paused')
    const minutes = (Date.parse(view.aiPausedUntil ?? '') - Date.now()) / 60_000
    expect(minutes).toBeGreaterThan(29)
    expect(minutes).toBeLessThanOrEqual(30)
    expect(scheduled.filter((s) => s.conversationId === conversationId)).toHaveLength(1)

    // While paused the customer's message is stored, shown and not queued for the AI.
    await receive(bot, 'Thanks Sam', chatId)
    const [, latest] = await messagesOf(p.db, bot.channelId, 'inbound')
    expect(latest).toMatchObject({ status: 'received', failureReason: REPLY_FAILURES.aiPaused })
    expect(await jobsFor(latest.id)).toBe(0)

    // The hand-back: not before its time, then at once.
    expect(await resumeDueConversations(p.db, conversationId)).toEqual([])
    await p.db
      .update(conversations)
      .set({ aiPausedUntil: sql`now() - interval '1 second'` })
      .where(eq(conversations.id, conversationId))
    expect(await resumeDueConversations(p.db, conversationId)).toEqual([conversationId])
    expect((await getConversation(bot.scope, conversationId)).state).toBe('ai')
  })

  it("hands back after the channel's minutes, or never by itself with 0", async () => {
    const bot = await p.newBot()
    await updateChannel(bot.scope, bot.channelId, { autoResumeMinutes: 5 })
    const first = await receive(bot, 'first customer')
    const { aiPausedUntil } = await sendPersonReply(bot.scope, deps, {
      conversationId: first.conversationId,
      text: 'back in five',
    })
    const minutes = ((aiPausedUntil?.getTime() ?? 0) - Date.now()) / 60_000
    expect(minutes).toBeGreaterThan(4)
    expect(minutes).toBeLessThanOrEqual(5)

    await updateChannel(bot.scope, bot.channelId, { autoResumeMinutes: 0 })
    const second = await receive(bot, 'second customer')
    const never = await sendPersonReply(bot.scope, deps, {
      conversationId: second.conversationId,
      text: 'mine now',
    })
    expect(never.aiPausedUntil).toBeNull()
    expect((await getConversation(bot.scope, second.conversationId)).state).toBe('paused')
    expect(scheduled.filter((s) => s.conversationId === second.conversationId)).toEqual([])
  })

  it('refuses an empty, unsent or unreachable reply with a clear message and stores nothing', async () => {
    const bot = await p.newBot()
    const { conversationId } = await receive(bot, 'hello')
    await p.db.update(channels).set({ status: 'error' }).where(eq(channels.id, bot.channelId))
    expect(await refusal(sendPersonReply(bot.scope, deps, { conversationId, text: 'hi' }))).toEqual({
      code: 'CONFLICT',
      message: CONVERSATION_TEXTS.channelNotActive('error'),
    })
    expect(await messagesOf(p.db, bot.channelId, 'outbound')).toEqual([])

    // A health check found the token refused while the channel is still active: nothing is attempted either.
    await p.db
      .update(channels)
      .set({ status: 'active', healthProblem: 'token_invalid' })
      .where(eq(channels.id, bot.channelId))
    const calls = p.telegram.calls.length
    expect(await refusal(sendPersonReply(bot.scope, deps, { conversationId, text: 'hi' }))).toEqual({
      code: 'CONFLICT',
      message: CONVERSATION_TEXTS.channelTokenDead,
    })
    expect(p.telegram.calls.length).toBe(calls)
    expect(await messagesOf(p.db, bot.channelId, 'outbound')).toEqual([])
    // The conversation's view says so before the person writes.
    const view = await getConversation(bot.scope, conversationId)
    expect(view.channel).toMatchObject({ status: 'active', tokenRefused: true })
    expect(personReplyAvailability(view)).toEqual({
      open: false,
      reason: CONVERSATION_TEXTS.channelTokenDead,
    })
  })

  it('sends once more after a dropped connection, and records a second drop as failed', async () => {
    const bot = await p.newBot()
    const { conversationId } = await receive(bot, 'are you there?')
    p.telegram.enqueue('sendMessage', { status: 0, reset: true, token: bot.token })
    const sent = await sendPersonReply(bot.scope, deps, { conversationId, text: 'Yes, Sam here' })
    expect(sent.message).toMatchObject({ status: 'sent', sentParts: 1 })
    expect(p.telegram.sentMessages(bot.token).map((m) => m.text)).toEqual(['Yes, Sam here'])

    for (let i = 0; i < 2; i++)
      p.telegram.enqueue('sendMessage', { status: 0, reset: true, token: bot.token })
    expect(await refusal(sendPersonReply(bot.scope, deps, { conversationId, text: 'Still here' }))).toEqual({
      code: 'UPSTREAM_ERROR',
      message: expect.any(String),
    })
    const [, failed] = await messagesOf(p.db, bot.channelId, 'outbound')
    expect(failed).toMatchObject({ text: 'Still here', status: 'failed' })
    expect(p.telegram.sentMessages(bot.token)).toHaveLength(1)
  })

  it('does not send an answer the model was writing when a person took over', async () => {
    const bot = await p.newBot()
    const { inbound, conversationId } = await receive(bot, 'slow question')
    p.model.enqueue({ delayMs: 700, match: 'slow question' })
    const replying = replyToMessage(p.deps, inbound.id)
    // The person takes over while the model is writing: its request has arrived and is not answered yet.
    const writing = ({ body, answeredAt }: RecordedRequest) =>
      answeredAt === undefined && JSON.stringify(body.messages).includes('slow question')
    await waitFor(async () => p.model.requests.some(writing), Boolean)
    await pauseConversation(bot.scope, conversationId, {}, deps.scheduleResume)
    expect(await replying).toEqual({ outcome: 'not-answered', reason: REPLY_FAILURES.aiPaused })
    expect(p.telegram.sentMessages(bot.token)).toEqual([])
    const [stored, answer] = await messagesOf(p.db, bot.channelId)
    expect(stored).toMatchObject({ status: 'received', failureReason: REPLY_FAILURES.aiPaused })
    expect(answer).toMatchObject({ status: 'failed', failureReason: REPLY_FAILURES.answerWithheld })

    // Resumed: the next message is answered by the AI again.
    await resumeConversation(bot.scope, conversationId)
    const next = await receive(
      bot,
      'and now?',
      Number((await getConversation(bot.scope, conversationId)).customer.platformId),
    )
    expect((await replyToMessage(p.deps, next.inbound.id)).outcome).toBe('replied')
  })

  it('marks a failed reply as needing attention, and sends it again on retry', async () => {
    const bot = await p.newBot()
    const { inbound, conversationId } = await receive(bot, 'will fail')
    for (let i = 0; i < 4; i++) p.telegram.enqueue('sendMessage', { status: 500, token: bot.token })
    expect((await replyToMessage(p.deps, inbound.id)).outcome).toBe('failed')
    const failed = await getConversation(bot.scope, conversationId)
    expect(failed.state).toBe('needs_attention')
    expect(failed.attentionReason).toBeTruthy()

    const other = await receive(bot, 'another chat')
    expect(await refusal(retryMessage(bot.scope, deps, inbound.id, other.conversationId))).toEqual({
      code: 'NOT_FOUND',
      message: CONVERSATION_TEXTS.messageNotFound,
    })
    expect(await retryMessage(bot.scope, deps, inbound.id, conversationId)).toEqual({ requeued: true })
    expect(await refusal(retryMessage(bot.scope, deps, inbound.id))).toEqual({
      code: 'CONFLICT',
      message: CONVERSATION_TEXTS.notRetryable,
    })
    expect((await getConversation(bot.scope, conversationId)).state).toBe('ai')
    expect((await replyToMessage(p.deps, inbound.id)).outcome).toBe('replied')
    expect(p.telegram.sentMessages(bot.token).map((m) => m.text)).toEqual(['Echo: will fail'])
  })
})

describe("the platforms' windows for a person's reply", () => {
  it('Messenger: a response within 24 hours, HUMAN_AGENT within 7 days, a refusal after', async () => {
    const page = await p.newMetaChannel('facebook')
    const inbound = await receiveMeta(page, 'hello page')
    const conversationId = inbound.conversationId
    const sent = () => p.graph.messages.filter((m) => m.from === page.platformChannelId && m.text)

    await sendPersonReply(page.scope, deps, { conversationId, text: 'within a day' })
    await customerWroteAgo(conversationId, 48)
    await sendPersonReply(page.scope, deps, { conversationId, text: 'two days later' })
    expect(sent().map((m) => [m.text, m.messagingType, m.tag])).toEqual([
      ['within a day', 'RESPONSE', undefined],
      ['two days later', 'MESSAGE_TAG', 'HUMAN_AGENT'],
    ])

    await customerWroteAgo(conversationId, 8 * 24)
    expect(await refusal(sendPersonReply(page.scope, deps, { conversationId, text: 'too late' }))).toEqual({
      code: 'CONFLICT',
      message: CONVERSATION_TEXTS.messengerWindowClosed,
    })
    expect(sent()).toHaveLength(2)
  })

  it('WhatsApp: only within the 24-hour customer-service window', async () => {
    const number = await p.newMetaChannel('whatsapp')
    const inbound = await receiveMeta(number, 'hola', '34600000001')
    await sendPersonReply(number.scope, deps, { conversationId: inbound.conversationId, text: 'in time' })
    await customerWroteAgo(inbound.conversationId, 25)
    expect(
      await refusal(
        sendPersonReply(number.scope, deps, { conversationId: inbound.conversationId, text: 'late' }),
      ),
    ).toEqual({ code: 'CONFLICT', message: CONVERSATION_TEXTS.whatsappWindowClosed })
    const texts = p.graph.messages.filter((m) => m.from === number.platformChannelId).map((m) => m.text)
    expect(texts).toEqual(['in time'])
  })
})

const jpegOf = (size: number) => Uint8Array.from({ length: size }, (_, i) => [0xff, 0xd8, 0xff][i] ?? 7)

describe("a person's picture or document (issue 37)", () => {
  it('Telegram: the photo goes with its caption, once per key; the inbox shows it from the stored copy', async () => {
    const bot = await p.newBot()
    const { conversationId, chatId } = await receive(bot, 'what does it look like?')
    const png = photo([20, 120, 200])
    const reply = {
      conversationId,
      text: ' Like this ',
      clientKey: 'photo-1',
      attachment: { bytes: png, fileName: 'shelf.png' },
    }
    expect((await sendPersonReply(bot.scope, deps, reply)).message).toMatchObject({
      status: 'sent',
      text: 'Like this',
    })
    expect((await sendPersonReply(bot.scope, deps, reply)).sentNow).toBe(false)
    expect(p.telegram.sentFiles(bot.token)).toEqual([
      expect.objectContaining({
        chatId,
        method: 'sendPhoto',
        fileName: 'shelf.png',
        caption: 'Like this',
      }),
    ])
    expect(sha256Of(p.telegram.sentFiles(bot.token)[0].bytes)).toBe(sha256Of(png))
    expect(p.telegram.sentMessages(bot.token).filter((m) => !m.file)).toEqual([])

    const shown = (await getConversation(bot.scope, conversationId)).messages.at(-1)
    expect(shown).toMatchObject({
      direction: 'outbound',
      author: { kind: 'person' },
      text: 'Like this',
      media: {
        kind: 'photo',
        state: 'read',
        fileName: 'shelf.png',
        file: { contentType: 'image/png', byteSize: png.length },
      },
    })
    const file = await getMessageFile(bot.scope, conversationId, shown?.id ?? '')
    expect(sha256Of(file.bytes)).toBe(sha256Of(png))
    const stranger = await newOwnerScope(p.db)
    await expect(getMessageFile(stranger, conversationId, shown?.id ?? '')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
  })

  it('WhatsApp: a document, then a caption too long to go with it as text; refusals store and send nothing', async () => {
    const number = await p.newMetaChannel('whatsapp')
    const inbound = await receiveMeta(number, 'send me the price list', '34600000077')
    const pdf = makePdf([['Bread 2.50 EUR']])
    const caption = `Here it is. ${'Prices may change. '.repeat(60)}`.trim()
    const sent = await sendPersonReply(number.scope, deps, {
      conversationId: inbound.conversationId,
      text: caption,
      attachment: { bytes: pdf, fileName: 'prices.pdf' },
    })
    expect(sent.message).toMatchObject({ status: 'sent', sentParts: 2 })
    const out = p.graph.messages.filter((m) => m.from === number.platformChannelId)
    expect(
      out.map((m) => [m.attachment?.type, m.attachment?.filename, m.attachment?.caption, m.text]),
    ).toEqual([
      ['document', 'prices.pdf', undefined, undefined],
      [undefined, undefined, undefined, caption],
    ])
    expect(out[0].attachment?.sha256).toBe(sha256Of(pdf))

    const refused = async (attachment: { bytes: Uint8Array; fileName: string }) =>
      refusal(
        sendPersonReply(number.scope, deps, {
          conversationId: inbound.conversationId,
          text: 'x',
          attachment,
        }),
      )
    expect(await refused({ bytes: new TextEncoder().encode('GIF89a...'), fileName: 'a.gif' })).toEqual({
      code: 'VALIDATION_ERROR',
      message: ATTACHMENT_TEXTS.unsupported,
    })
    expect(await refused({ bytes: jpegOf(5 * 1024 * 1024 + 1), fileName: 'big.jpg' })).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'A picture sent on WhatsApp can be at most 5 MB',
    })
    expect(await messagesOf(p.db, number.channelId, 'outbound')).toHaveLength(1)
    expect(p.graph.messages.filter((m) => m.from === number.platformChannelId)).toHaveLength(2)
  })

  it('Messenger: a refused upload fails the reply; sent again, the stored file goes, then its caption', async () => {
    const page = await p.newMetaChannel('facebook')
    const inbound = await receiveMeta(page, 'a picture please')
    const png = photo([90, 90, 90])
    p.graph.enqueue(`${page.platformChannelId}/messages`, { status: 500 })
    const reply = {
      conversationId: inbound.conversationId,
      text: 'Our shop',
      attachment: { bytes: png, fileName: 'shop.png' },
    }
    expect(await refusal(sendPersonReply(page.scope, deps, reply))).toMatchObject({ code: 'UPSTREAM_ERROR' })
    const [failed] = await messagesOf(p.db, page.channelId, 'outbound')
    expect(failed).toMatchObject({ status: 'failed', kind: 'photo', sentParts: 0 })

    await retryMessage(page.scope, deps, failed.id, inbound.conversationId)
    const out = p.graph.messages.filter((m) => m.from === page.platformChannelId)
    expect(out.map((m) => [m.attachment?.type, m.attachment?.sha256, m.text])).toEqual([
      ['image', sha256Of(png), undefined],
      [undefined, undefined, 'Our shop'],
    ])

    // A failed reply whose file the retention deleted meanwhile says so, and sends nothing.
    p.graph.enqueue(`${page.platformChannelId}/messages`, { status: 500 })
    await refusal(sendPersonReply(page.scope, deps, { ...reply, text: 'Again' }))
    const [, second] = await messagesOf(p.db, page.channelId, 'outbound')
    await p.db.delete(messageMedia).where(eq(messageMedia.messageId, second.id))
    expect(await refusal(retryMessage(page.scope, deps, second.id))).toEqual({
      code: 'CONFLICT',
      message: ATTACHMENT_TEXTS.gone,
    })
    expect(p.graph.messages.filter((m) => m.from === page.platformChannelId)).toHaveLength(2)
  })
})

/** A conversation's status, and who resolved it (null: nobody did, the AI). */
const statusOf = async (conversationId: string) =>
  (
    await p.db
      .select({ status: conversations.status, resolvedBy: conversations.resolvedBy })
      .from(conversations)
      .where(eq(conversations.id, conversationId))
  )[0]

describe('resolving and reopening (issue 33)', () => {
  const listed = async (scope: TestBot['scope'], status: 'open' | 'resolved') =>
    (await listConversations(scope, { status, page: 1, pageSize: 50 })).items.map((c) => c.id)

  it("a person resolves; answers keep it resolved; the customer's next message opens it, alone or in a batch", async () => {
    const bot = await p.newBot()
    const { inbound, chatId, conversationId } = await receive(bot, 'Thanks, that was all')
    await replyToMessage(p.deps, inbound.id)

    expect(await setConversationStatus(bot.scope, conversationId, 'resolved')).toEqual({
      status: 'resolved',
      resolvedAt: expect.any(Date),
      snoozedUntil: null,
    })
    expect(await statusOf(conversationId)).toEqual({ status: 'resolved', resolvedBy: bot.scope.userId })
    expect(await listed(bot.scope, 'resolved')).toEqual([conversationId])
    expect(await listed(bot.scope, 'open')).toEqual([])
    expect((await getConversation(bot.scope, conversationId)).status).toBe('resolved')

    // A person's answer after resolving does not open it again.
    await sendPersonReply(bot.scope, deps, { conversationId, text: 'Glad to help!' })
    expect((await statusOf(conversationId)).status).toBe('resolved')

    // The customer writes again: stored alone (the summary trigger)...
    await receive(bot, 'Oh, one more thing', chatId)
    expect((await statusOf(conversationId)).status).toBe('open')

    // ...or by the receivers' batch (its own upsert).
    await setConversationStatus(bot.scope, conversationId, 'resolved')
    const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
    const update = telegramUpdateSchema.parse(textUpdate(chatId, 'And another'))
    const normalized = normalizeTelegramUpdate(channel, update)
    if (!normalized) throw new Error('the update did not normalize')
    await ingestInboundBatch({ db: p.db, jobs: p.jobs, messages: [normalized] })
    expect((await statusOf(conversationId)).status).toBe('open')

    await setConversationStatus(bot.scope, conversationId, 'resolved')
    expect(await setConversationStatus(bot.scope, conversationId, 'open')).toMatchObject({ status: 'open' })
    expect(await listed(bot.scope, 'open')).toEqual([conversationId])
  })

  it("another organization's conversation, or no conversation, is not found and nothing changes", async () => {
    const bot = await p.newBot()
    const { conversationId } = await receive(bot, 'Hello there')
    const stranger = await newOwnerScope(p.db)
    const notFound = { code: 'NOT_FOUND', message: CONVERSATION_TEXTS.notFound }
    expect(await refusal(setConversationStatus(stranger, conversationId, 'resolved'))).toEqual(notFound)
    expect(await refusal(setConversationStatus(bot.scope, 'not-an-id', 'resolved'))).toEqual(notFound)
    expect(await statusOf(conversationId)).toEqual({ status: 'open', resolvedBy: null })
  })
})

describe('assignment (issue 33)', () => {
  /** A second member of the bot's organization, and their scope there. */
  async function secondMember(bot: TestBot, name = 'Bea') {
    const user = await newTestUser(p.db, name)
    const { organizationId } = bot.scope
    await p.db.insert(memberships).values({ organizationId, userId: user.id, role: 'member' })
    return { user, scope: await requireOrganizationScope({ db: p.db, userId: user.id, organizationId }) }
  }
  const assigneeOf = async (conversationId: string) =>
    (await p.db.select().from(conversations).where(eq(conversations.id, conversationId)))[0].assigneeId
  const listedAs = async (scope: TestBot['scope'], assignee: string) =>
    (await listConversations(scope, { assignee, page: 1, pageSize: 50 })).items.map((c) => c.id)

  it('a person assigns to a member or to nobody; the views list and count them; anyone else is refused', async () => {
    const bot = await p.newBot()
    const bea = await secondMember(bot)
    const first = await receive(bot, 'Who can help me?')
    const second = await receive(bot, 'Another question')
    const counts = { mine: 0, unassigned: 2, needs_attention: 0, all: 2 }
    expect(await countViews(bot.scope)).toEqual(counts)

    const bea_ = { uid: bea.user.firebaseUid, name: 'Bea' }
    expect(await assignConversation(bot.scope, first.conversationId, bea_.uid)).toEqual({ assignee: bea_ })
    expect((await getConversation(bot.scope, first.conversationId)).assignee).toEqual(bea_)
    expect(await listedAs(bea.scope, 'me')).toEqual([first.conversationId])
    expect(await listedAs(bot.scope, bea_.uid)).toEqual([first.conversationId])
    expect(await listedAs(bot.scope, 'me')).toEqual([])
    expect(await listedAs(bot.scope, 'none')).toEqual([second.conversationId])
    expect(await countViews(bea.scope)).toEqual({ ...counts, mine: 1, unassigned: 1 })
    // A resolved conversation leaves the counts (they are of the open ones).
    await setConversationStatus(bea.scope, first.conversationId, 'resolved')
    expect(await countViews(bea.scope)).toEqual({ ...counts, unassigned: 1, all: 1 })

    // Another organization's member, an unknown uid, or another organization's caller: refused, nothing changes.
    const stranger = await newOwnerScope(p.db)
    const strangerUid = (await p.db.select().from(users).where(eq(users.id, stranger.userId)))[0].firebaseUid
    const notMember = { code: 'VALIDATION_ERROR', message: CONVERSATION_TEXTS.assigneeNotMember }
    expect(await refusal(assignConversation(bot.scope, first.conversationId, strangerUid))).toEqual(notMember)
    expect(await refusal(assignConversation(bot.scope, first.conversationId, 'uid-nobody'))).toEqual(
      notMember,
    )
    expect(await refusal(assignConversation(stranger, first.conversationId, null))).toEqual({
      code: 'NOT_FOUND',
      message: CONVERSATION_TEXTS.notFound,
    })
    expect(await assigneeOf(first.conversationId)).toBe(bea.user.id)

    expect(await assignConversation(bea.scope, first.conversationId, null)).toEqual({ assignee: null })
    expect(await assigneeOf(first.conversationId)).toBeNull()
  })

  it('a handoff or a failure leaves it unassigned, unless the channel names a default assignee; one who leaves has none', async () => {
    const bot = await p.newBot()
    const bea = await secondMember(bot)
    const handedOver = await receive(bot, 'I want a person')
    await handOver(p.db, handedOver.conversationId, 'The customer asked for a person')
    expect(await getConversation(bot.scope, handedOver.conversationId)).toMatchObject({
      state: 'needs_attention',
      assignee: null,
    })

    // Resolved by a person: it no longer waits for one.
    await setConversationStatus(bot.scope, handedOver.conversationId, 'resolved')
    expect((await getConversation(bot.scope, handedOver.conversationId)).state).toBe('paused')

    await updateChannel(bot.scope, bot.channelId, { defaultAssigneeUid: bea.user.firebaseUid })
    const failing = await receive(bot, 'will fail')
    for (let i = 0; i < 4; i++) p.telegram.enqueue('sendMessage', { status: 500, token: bot.token })
    expect((await replyToMessage(p.deps, failing.inbound.id)).outcome).toBe('failed')
    expect(await getConversation(bot.scope, failing.conversationId)).toMatchObject({
      state: 'needs_attention',
      assignee: { uid: bea.user.firebaseUid, name: 'Bea' },
    })
    // Someone already on it keeps it.
    const mine = await receive(bot, 'A question for the owner')
    const ownerUid = (await p.db.select().from(users).where(eq(users.id, bot.scope.userId)))[0].firebaseUid
    await assignConversation(bot.scope, mine.conversationId, ownerUid)
    await handOver(p.db, mine.conversationId, 'The customer asked for a person')
    expect(await assigneeOf(mine.conversationId)).toBe(bot.scope.userId)

    // A default assignee who is not a member is refused, and the channel keeps its own.
    expect(
      await refusal(updateChannel(bot.scope, bot.channelId, { defaultAssigneeUid: 'uid-nobody' })),
    ).toEqual({ code: 'VALIDATION_ERROR', message: CONVERSATION_TEXTS.assigneeNotMember })
    const defaultOf = async () =>
      (await p.db.select().from(channels).where(eq(channels.id, bot.channelId)))[0].defaultAssigneeId
    expect(await defaultOf()).toBe(bea.user.id)

    // Bea leaves: her conversations are unassigned, and the channel has no default any more.
    await leaveOrganization(bea.scope)
    expect(await assigneeOf(failing.conversationId)).toBeNull()
    expect(await defaultOf()).toBeNull()
    expect(await assigneeOf(mine.conversationId)).toBe(bot.scope.userId)
  })
})

describe('unread marks (issue 33)', () => {
  it("are each member's own: a conversation is unread until they open it, and again once a message comes", async () => {
    const bot = await p.newBot()
    const { organizationId } = bot.scope
    const bea = await newTestUser(p.db, 'Bea')
    await p.db.insert(memberships).values({ organizationId, userId: bea.id, role: 'member' })
    const beaScope = await requireOrganizationScope({ db: p.db, userId: bea.id, organizationId })
    const unread = async (scope: TestBot['scope']) =>
      (await listConversations(scope, { page: 1, pageSize: 50 })).items.map((c) => c.unread)
    const { inbound, chatId, conversationId } = await receive(bot, 'Hello?')
    await replyToMessage(p.deps, inbound.id)
    expect(await unread(bot.scope)).toEqual([true])

    await markConversationRead(bot.scope, conversationId)
    expect(await unread(bot.scope)).toEqual([false])
    expect(await unread(beaScope)).toEqual([true])
    // Opened again (a live reload) with nothing new: the read is not written again.
    const readAt = () =>
      p.db
        .select({ at: conversationReads.readAt })
        .from(conversationReads)
        .where(eq(conversationReads.userId, bot.scope.userId))
        .then((rows) => rows.map((row) => row.at.getTime()))
    const [first] = await readAt()
    await markConversationRead(bot.scope, conversationId)
    expect(await readAt()).toEqual([first])
    await receive(bot, 'Anyone there?', chatId)
    expect(await unread(bot.scope)).toEqual([true])
    await markConversationRead(bot.scope, conversationId)
    expect(await unread(bot.scope)).toEqual([false])
    expect((await readAt())[0]).toBeGreaterThan(first)
  })
})

describe('labels (issue 33)', () => {
  const labelsOf = (scope: TestBot['scope'], label: string) =>
    listConversations(scope, { label, page: 1, pageSize: 50 }).then((list) =>
      list.items.map((c) => [c.id, c.labels]),
    )

  it("sets all of a conversation's labels; the list filters by one; bad ones and another organization change nothing", async () => {
    const bot = await p.newBot()
    const first = await receive(bot, 'I want my money back')
    const second = await receive(bot, 'Where is my parcel?')
    const parse = (labels: unknown) => labelsSchema.parse({ labels }).labels
    expect(
      await setConversationLabels(bot.scope, first.conversationId, parse([' Refund ', 'VIP', 'refund'])),
    ).toEqual({
      labels: ['refund', 'vip'],
    })
    await setConversationLabels(bot.scope, second.conversationId, ['vip'])
    expect(await labelsOf(bot.scope, 'refund')).toEqual([[first.conversationId, ['refund', 'vip']]])
    expect((await labelsOf(bot.scope, 'vip')).map(([id]) => id).sort()).toEqual(
      [first.conversationId, second.conversationId].sort(),
    )
    expect(await listOrganizationLabels(bot.scope)).toEqual(['refund', 'vip'])

    // Over the limit, or not a label: refused by the schema, before anything is written.
    const issues = (labels: unknown) => labelsSchema.safeParse({ labels }).error?.issues.map((i) => i.message)
    expect(issues(Array.from({ length: 11 }, (_, i) => `l${i}`))).toEqual([CONVERSATION_TEXTS.labelsTooMany])
    expect(issues(['ok', 'no/slash'])).toEqual([CONVERSATION_TEXTS.labelInvalid])
    expect(issues(['x'.repeat(31)])).toEqual([CONVERSATION_TEXTS.labelInvalid])

    const stranger = await newOwnerScope(p.db)
    expect(await refusal(setConversationLabels(stranger, first.conversationId, []))).toEqual({
      code: 'NOT_FOUND',
      message: CONVERSATION_TEXTS.notFound,
    })
    expect(await labelsOf(stranger, 'refund')).toEqual([])
    expect(await listOrganizationLabels(stranger)).toEqual([])
    expect((await getConversation(bot.scope, first.conversationId)).labels).toEqual(['refund', 'vip'])

    await setConversationLabels(bot.scope, first.conversationId, [])
    expect(await labelsOf(bot.scope, 'refund')).toEqual([])
  })
})

describe('the customer beside the chat (issue 33)', () => {
  it("names the customer's handle, language and first message, and their conversations on the organization's other bots", async () => {
    const bot = await p.newBot()
    const second = await connectTestBot(bot.scope, p.telegram, p.channelDeps)
    const chatId = ++chats
    const update = (text: string, language?: string) =>
      telegramTextUpdate(
        { updateId: ++chats, messageId: ++chats, chatId, text },
        {
          last_name: 'Lee',
          username: 'ann',
          ...(language ? { language_code: language } : {}),
        },
      )
    // The first bot's message is stored alone; the second bot's in a batch: both write the contact.
    const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
    // Messages that say no language: the customer's app's language is the one known.
    await receiveTelegramUpdate({ db: p.db, boss: p.boss, channel, body: update('👋', 'pt-BR') })
    await receiveTelegramUpdate({ db: p.db, boss: p.boss, channel, body: update('🙂 12345') })
    const other = await authenticateTelegramWebhook(p.db, second.channelId, second.secret)
    const normalized = normalizeTelegramUpdate(other, telegramUpdateSchema.parse(update('Oi', 'pt')))
    if (!normalized) throw new Error('not a message')
    await ingestInboundBatch({ db: p.db, jobs: p.jobs, messages: [normalized] })
    const [first, onSecond] = await Promise.all(
      [bot.channelId, second.channelId].map(async (id) => (await messagesOf(p.db, id, 'inbound'))[0]),
    )

    const contact = await getContact(bot.scope, first.conversationId)
    expect(contact).toMatchObject({
      platformName: 'telegram',
      name: 'Ann Lee',
      handle: '@ann',
      phone: null,
      language: 'pt-br',
      notes: '',
      conversationCount: 2,
      otherConversations: [{ id: onSecond.conversationId, status: 'open' }],
    })
    expect(Date.parse(contact.firstSeenAt)).toBeLessThanOrEqual(first.createdAt.getTime())
    expect(await getContact(bot.scope, onSecond.conversationId)).toMatchObject({
      language: 'pt',
      otherConversations: [{ id: first.conversationId }],
    })
  })

  it('gives the phone number of a WhatsApp customer, and no other conversation of a stranger', async () => {
    const whatsapp = await p.newMetaChannel('whatsapp')
    const inbound = await receiveMeta(whatsapp, 'Hola', '5491155550000')
    // Another organization's customer with the same number is not this organization's.
    const stranger = await p.newMetaChannel('whatsapp')
    await receiveMeta(stranger, 'Hola', '5491155550000')
    expect(await getContact(whatsapp.scope, inbound.conversationId)).toMatchObject({
      platformName: 'whatsapp',
      phone: '+5491155550000',
      handle: null,
      // WhatsApp tells no language: the message's.
      language: 'es',
      conversationCount: 1,
      otherConversations: [],
    })
  })

  it("keeps the team's notes; too long or another organization's changes nothing", async () => {
    const bot = await p.newBot()
    const { conversationId } = await receive(bot, 'Hello')
    expect(await setContactNotes(bot.scope, conversationId, 'Prefers pickup on Fridays')).toEqual({
      notes: 'Prefers pickup on Fridays',
    })
    const issues = contactNotesSchema.safeParse({ notes: 'x'.repeat(2001) }).error?.issues
    expect(issues?.map((i) => i.message)).toEqual([CONTACT_TEXTS.notesTooLong])
    expect(contactNotesSchema.parse({ notes: '  trimmed  ' })).toEqual({ notes: 'trimmed' })

    const stranger = await newOwnerScope(p.db)
    const notFound = { code: 'NOT_FOUND', message: CONVERSATION_TEXTS.notFound }
    expect(await refusal(setContactNotes(stranger, conversationId, 'mine now'))).toEqual(notFound)
    expect(await refusal(getContact(stranger, conversationId))).toEqual(notFound)
    expect(await refusal(getContact(bot.scope, 'not-an-id'))).toEqual(notFound)
    expect((await getContact(bot.scope, conversationId)).notes).toBe('Prefers pickup on Fridays')
  })
})

// Last in the file: the sweeps run on a clock a day ahead, over every conversation of the test database.
describe('snoozing, and the AI resolving its quiet conversations (issue 33)', () => {
  const HOUR = 60 * 60 * 1000
  const later = (ms: number) => new Date(Date.now() + ms)

  it('a snoozed conversation leaves the open ones until its time, or until the customer writes', async () => {
    const bot = await p.newBot()
    const { chatId, conversationId } = await receive(bot, 'Call me back next week')
    const snoozed = await setConversationStatus(bot.scope, conversationId, 'snoozed', 60)
    expect(snoozed.status).toBe('snoozed')
    expect(Math.abs(snoozed.snoozedUntil!.getTime() - later(HOUR).getTime())).toBeLessThan(60_000)
    expect((await countViews(bot.scope)).all).toBe(0)
    expect(await refusal(setConversationStatus(bot.scope, conversationId, 'snoozed'))).toEqual({
      code: 'VALIDATION_ERROR',
      message: CONVERSATION_TEXTS.snoozeInvalid,
    })

    await wakeSnoozedConversations(p.db, later(HOUR - 2 * 60_000))
    expect((await statusOf(conversationId)).status).toBe('snoozed')
    await wakeSnoozedConversations(p.db, later(HOUR + 60_000))
    expect((await statusOf(conversationId)).status).toBe('open')

    await setConversationStatus(bot.scope, conversationId, 'snoozed', 24 * 60)
    await receive(bot, 'Actually, now please', chatId)
    expect(await getConversation(bot.scope, conversationId)).toMatchObject({
      status: 'open',
      snoozedUntil: null,
    })
  })

  it('resolves after the period what the AI answered alone; not when a person wrote or a handoff happened', async () => {
    const bot = await p.newBot()
    const alone = await receive(bot, 'What are your hours?')
    await replyToMessage(p.deps, alone.inbound.id)
    const withPerson = await receive(bot, 'Can I change my order?')
    await replyToMessage(p.deps, withPerson.inbound.id)
    await sendPersonReply(bot.scope, deps, { conversationId: withPerson.conversationId, text: 'Done!' })
    await resumeConversation(bot.scope, withPerson.conversationId)
    const handedOver = await receive(bot, 'I want a person')
    await replyToMessage(p.deps, handedOver.inbound.id)
    await handOver(p.db, handedOver.conversationId, 'The customer asked for a person')
    const unanswered = await receive(bot, 'Hello?')
    const neverHere = await p.newBot()
    await updateOrganization(neverHere.scope, { autoResolveHours: 0 })
    const never = await receive(neverHere, 'What are your hours?')
    await replyToMessage(p.deps, never.inbound.id)

    await resolveQuietConversations(p.db, later(23 * HOUR))
    expect((await statusOf(alone.conversationId)).status).toBe('open')
    await resolveQuietConversations(p.db, later(25 * HOUR))
    expect(await statusOf(alone.conversationId)).toEqual({ status: 'resolved', resolvedBy: null })
    for (const left of [withPerson, handedOver, unanswered, never]) {
      expect((await statusOf(left.conversationId)).status).toBe('open')
    }
  })
})
