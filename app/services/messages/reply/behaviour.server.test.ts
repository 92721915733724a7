import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentRuns, conversations } from '~/db/schema'
import { DEFAULT_OFFICE_HOURS, type OfficeHours } from '~/lib/agents/behaviour'
import { REPLY_FAILURES } from '~/lib/conversations/reply-pipeline'
import { resumeConversation } from '~/services/conversations/takeover.server'
import type { RecordedRequest } from '../../../../tests/fakes/openai-server'
import {
  messagesOf,
  startPipeline,
  textUpdate,
  waitFor,
  waitForSettled,
  type Pipeline,
  type TestBot,
} from '../../../../tests/setup/pipeline'
import {
  authenticateTelegramWebhook,
  receiveTelegramUpdate,
} from '~/services/messages/inbound/telegram.server'
import { replyToMessage } from './reply.server'

// How the agent behaves in a conversation (issue #17), through the reply worker and the fakes over HTTP.
let p: Pipeline
beforeAll(async () => {
  p = await startPipeline()
})
afterAll(async () => {
  await p.close()
})

let chats = 700_000
async function receive(bot: TestBot, text: string, chatId: number) {
  const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
  await receiveTelegramUpdate({ db: p.db, boss: p.boss, channel, body: textUpdate(chatId, text) })
}

const userTurns = (request: RecordedRequest) =>
  request.body.messages.filter((m) => m.role === 'user').map((m) => String(m.content))
const requestsWith = (text: string) =>
  p.model.requests.filter(
    (r) => r.path.endsWith('/chat/completions') && JSON.stringify(r.body).includes(text),
  )
const sentTexts = (bot: TestBot) => p.telegram.sentMessages(bot.token).map((m) => m.text)
const conversationOf = async (conversationId: string) =>
  (await p.db.select().from(conversations).where(eq(conversations.id, conversationId)))[0]

describe('the burst wait', () => {
  it('answers three messages sent within the wait once, with one model call that reads all three', async () => {
    const bot = await p.newBot({ behaviour: { burstWaitSeconds: 1 } })
    const chatId = ++chats
    const tag = `burst-${chatId}`
    for (const line of ['hi', 'I ordered a jacket', "it hasn't arrived"])
      await receive(bot, `${tag} ${line}`, chatId)
    await waitForSettled(p.db, bot.channelId)
    await new Promise((resolve) => setTimeout(resolve, 300)) // a second answer would show by now

    const calls = requestsWith(tag)
    expect(calls).toHaveLength(1)
    expect(userTurns(calls[0])).toEqual([`${tag} hi\n${tag} I ordered a jacket\n${tag} it hasn't arrived`])
    expect(sentTexts(bot)).toEqual([`Echo: ${tag} hi\n${tag} I ordered a jacket\n${tag} it hasn't arrived`])
    const rows = await messagesOf(p.db, bot.channelId)
    expect(rows.map((m) => [m.direction, m.status])).toEqual([
      ['inbound', 'replied'],
      ['inbound', 'replied'],
      ['inbound', 'replied'],
      ['outbound', 'sent'],
    ])
    // The answer belongs to the burst's last message.
    expect(rows[3].replyToMessageId).toBe(rows[2].id)
  })

  it('a message that comes while the model answers: the stale answer is never sent, one answer covers all four', async () => {
    const bot = await p.newBot({ behaviour: { burstWaitSeconds: 1 } })
    const chatId = ++chats
    const tag = `late-${chatId}`
    // The first answer is slow: the fourth message comes while it is being written.
    p.model.enqueue({ delayMs: 1500, match: `${tag} three` })
    for (const line of ['one', 'two', 'three']) await receive(bot, `${tag} ${line}`, chatId)
    await waitFor(
      async () => requestsWith(tag).length,
      (n) => n === 1,
    )
    await receive(bot, `${tag} four`, chatId)
    await waitForSettled(p.db, bot.channelId)
    await new Promise((resolve) => setTimeout(resolve, 300))

    const calls = requestsWith(tag)
    expect(calls).toHaveLength(2)
    expect(userTurns(calls[1])).toEqual([`${tag} one\n${tag} two\n${tag} three\n${tag} four`])
    expect(sentTexts(bot)).toEqual([`Echo: ${tag} one\n${tag} two\n${tag} three\n${tag} four`])
    const rows = await messagesOf(p.db, bot.channelId)
    expect(rows.filter((m) => m.direction === 'outbound')).toHaveLength(1)
    expect(rows.filter((m) => m.direction === 'inbound').map((m) => m.status)).toEqual(
      Array(4).fill('replied'),
    )
    // Both model calls are on record (the first one's run, its answer not stored).
    const runs = await p.db
      .select()
      .from(agentRuns)
      .where(eq(agentRuns.agentId, bot.agentId ?? ''))
    expect(runs).toHaveLength(2)
  })

  it('a worker that died once the platform had the answer, before recording it: the answer is sent as stored, not dropped, though the customer wrote since', async () => {
    // A wait of 30 s keeps the worker off these messages: the runs are made by hand.
    const bot = await p.newBot({ behaviour: { burstWaitSeconds: 30 } })
    const chatId = ++chats
    const tag = `window-${chatId}`
    for (const line of ['one', 'two', 'three']) await receive(bot, `${tag} ${line}`, chatId)
    const burst = await messagesOf(p.db, bot.channelId, 'inbound')
    // The process dies right after the platform accepted the answer: our record of the send never happens.
    const dying = {
      ...p.deps,
      telegram: {
        ...p.deps.telegram,
        sendMessage: async (...args: Parameters<typeof p.deps.telegram.sendMessage>) => {
          await p.deps.telegram.sendMessage(...args)
          throw new Error('the worker died here')
        },
      },
    }
    await expect(replyToMessage(dying, burst[2].id)).rejects.toThrow('the worker died here')
    const answer = `Echo: ${tag} one\n${tag} two\n${tag} three`
    expect(sentTexts(bot)).toEqual([answer])
    // The customer saw the answer and writes again; then the job comes back (a new worker took it over).
    await receive(bot, `${tag} thanks`, chatId)
    const late = (await messagesOf(p.db, bot.channelId, 'inbound'))[3]
    expect(await replyToMessage(p.deps, burst[2].id)).toMatchObject({ outcome: 'replied' })
    expect(await replyToMessage(p.deps, late.id)).toMatchObject({ outcome: 'replied' })

    // The window's one duplicate (ADR 021), then the new message's own answer: the first burst is not answered
    // again merged with it, and what the customer saw is on record.
    expect(sentTexts(bot)).toEqual([answer, answer, `Echo: ${tag} thanks`])
    const rows = await messagesOf(p.db, bot.channelId)
    const answers = rows.filter((m) => m.direction === 'outbound')
    expect(answers.map((m) => [m.replyToMessageId, m.text, m.status])).toEqual([
      [burst[2].id, answer, 'sent'],
      [late.id, `Echo: ${tag} thanks`, 'sent'],
    ])
    expect(rows.filter((m) => m.direction === 'inbound').map((m) => m.status)).toEqual(
      Array(4).fill('replied'),
    )
  })

  it('with a wait of 0, each message gets its own answer, in order (today’s behaviour)', async () => {
    const bot = await p.newBot({ behaviour: { burstWaitSeconds: 0 } })
    const chatId = ++chats
    const tag = `nowait-${chatId}`
    for (const line of ['a', 'b', 'c']) await receive(bot, `${tag} ${line}`, chatId)
    await waitForSettled(p.db, bot.channelId)
    expect(sentTexts(bot)).toEqual([`Echo: ${tag} a`, `Echo: ${tag} b`, `Echo: ${tag} c`])
  })
})

describe('handoff to a person', () => {
  it('the model calls handoff: the handoff message goes out, the conversation is paused and needs attention; later messages wait for a person', async () => {
    const bot = await p.newBot({ behaviour: { handoffMessage: 'A colleague will take it from here.' } })
    const chatId = ++chats
    const tag = `handoff-${chatId}`
    p.model.enqueue({
      match: tag,
      toolCall: { name: 'handoff', arguments: { reason: 'The customer asked for a refund over the limit' } },
    })
    await receive(bot, `${tag} I want to talk to a human`, chatId)
    await waitForSettled(p.db, bot.channelId)
    expect(sentTexts(bot)).toEqual(['A colleague will take it from here.'])
    // The handoff tool was offered with the request.
    expect(JSON.stringify(requestsWith(tag)[0].body.tools)).toContain('"handoff"')

    const [inbound, answer] = await messagesOf(p.db, bot.channelId)
    expect(inbound.status).toBe('replied')
    expect(answer).toMatchObject({ status: 'sent', replyToMessageId: inbound.id })
    const [run] = await p.db
      .select()
      .from(agentRuns)
      .where(eq(agentRuns.agentId, bot.agentId ?? ''))
    expect(run.handoffReason).toBe('The customer asked for a refund over the limit')
    const conversation = await conversationOf(inbound.conversationId)
    expect(conversation).toMatchObject({
      state: 'needs_attention',
      attentionReason: 'The agent handed over: The customer asked for a refund over the limit',
      aiPausedUntil: null,
    })
    expect(conversation.aiPausedAt).not.toBeNull()

    await receive(bot, `${tag} hello?`, chatId)
    await waitFor(
      () => messagesOf(p.db, bot.channelId, 'inbound'),
      (rows) => rows.length === 2,
    )
    await new Promise((resolve) => setTimeout(resolve, 500))
    const later = (await messagesOf(p.db, bot.channelId, 'inbound'))[1]
    expect(later).toMatchObject({ status: 'received', failureReason: REPLY_FAILURES.aiPaused })
    expect(sentTexts(bot)).toHaveLength(1)
    expect(requestsWith(`${tag} hello?`)).toEqual([])

    // Resumed by a person: the AI answers again.
    await resumeConversation(bot.scope, inbound.conversationId)
    await receive(bot, `${tag} thanks`, chatId)
    await waitForSettled(p.db, bot.channelId)
    await waitFor(
      async () => sentTexts(bot),
      (texts) => texts.length === 2,
    )
    expect(sentTexts(bot)[1]).toContain(`${tag} thanks`)
  })

  it('an agent with handoff off is not offered the tool', async () => {
    const bot = await p.newBot({ behaviour: { handoffEnabled: false } })
    const chatId = ++chats
    const tag = `notool-${chatId}`
    await receive(bot, `${tag} a person please`, chatId)
    await waitForSettled(p.db, bot.channelId)
    expect(requestsWith(tag)[0].body.tools).toBeUndefined()
  })
})

describe('office hours', () => {
  // Monday to Friday 09:00-17:00 in Berlin; Tuesday 2026-11-24 is a working day (UTC+1).
  const hours: OfficeHours = { ...DEFAULT_OFFICE_HOURS, timeZone: 'Europe/Berlin', outsideHours: 'message' }
  const at = (iso: string) => () => new Date(iso)

  // A wait of 30 s keeps the worker off these messages (its clock is the real one): the tests reply by hand.
  const officeBot = (outsideHours: OfficeHours['outsideHours'] = 'message') =>
    p.newBot({ behaviour: { officeHours: { ...hours, outsideHours }, burstWaitSeconds: 30 } })
  async function receiveAndReply(bot: TestBot, text: string, chatId: number, now: () => Date) {
    await receive(bot, text, chatId)
    const inbound = (await messagesOf(p.db, bot.channelId, 'inbound')).at(-1)
    if (!inbound) throw new Error('not stored')
    return { inbound, result: await replyToMessage({ ...p.deps, now }, inbound.id) }
  }

  it('inside the hours the agent answers as usual', async () => {
    const bot = await officeBot()
    const chatId = ++chats
    const { result } = await receiveAndReply(bot, `open-${chatId} hello`, chatId, at('2026-11-24T10:00:00Z'))
    expect(result.outcome).toBe('replied')
    expect(sentTexts(bot)).toEqual([`Echo: open-${chatId} hello`])
  })

  it('outside them: one out-of-hours message per closed period, the conversation marked; the model is not asked', async () => {
    const bot = await officeBot()
    const chatId = ++chats
    const tag = `closed-${chatId}`
    const evening = at('2026-11-24T19:00:00Z')
    const first = await receiveAndReply(bot, `${tag} are you open?`, chatId, evening)
    expect(first.result).toEqual({ outcome: 'not-answered', reason: REPLY_FAILURES.outOfHours })
    expect(sentTexts(bot)).toEqual([hours.message])
    expect(await conversationOf(first.inbound.conversationId)).toMatchObject({
      state: 'needs_attention',
      attentionReason: 'The customer wrote outside office hours',
    })
    // The same closed period: stored, not answered, no second message.
    const second = await receiveAndReply(bot, `${tag} hello?`, chatId, at('2026-11-25T06:00:00Z'))
    expect(second.result.outcome).toBe('not-answered')
    expect(sentTexts(bot)).toEqual([hours.message])
    // The next evening is another closed period: told once more.
    const third = await receiveAndReply(bot, `${tag} still there?`, chatId, at('2026-11-25T18:00:00Z'))
    expect(third.result.outcome).toBe('not-answered')
    expect(sentTexts(bot)).toEqual([hours.message, hours.message])
    expect(requestsWith(tag)).toEqual([])
    const inbound = await messagesOf(p.db, bot.channelId, 'inbound')
    expect(inbound.map((m) => [m.status, m.failureReason])).toEqual(
      Array(3).fill(['received', REPLY_FAILURES.outOfHours]),
    )
  })

  it('outside them, set to answer as usual, the agent answers', async () => {
    const bot = await officeBot('answer')
    const chatId = ++chats
    const { result } = await receiveAndReply(bot, `asusual-${chatId} hi`, chatId, at('2026-11-24T22:00:00Z'))
    expect(result.outcome).toBe('replied')
    expect(sentTexts(bot)).toEqual([`Echo: asusual-${chatId} hi`])
  })
})
