import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Job } from 'pg-boss'
import {
  authenticateTelegramWebhook,
  receiveTelegramUpdate,
} from '~/services/messages/inbound/telegram.server'
import type { RecordedRequest } from '../../tests/fakes/openai-server'
import {
  messagesOf,
  startPipeline,
  textUpdate,
  waitFor,
  waitForSettled,
  type Pipeline,
  type TestBot,
} from '../../tests/setup/pipeline'
import { handleReplyBatch, handleReplyJob } from '~/jobs/reply.server'
import { REPLY_QUEUE_OPTIONS } from '~/jobs/queues.server'

// The queue and its worker in this process, as on the embedded default: receive, and the worker answers.
let p: Pipeline
beforeAll(async () => {
  p = await startPipeline()
})
afterAll(async () => {
  await p.close()
})

let chats = 700_000
async function receive(bot: TestBot, update: object) {
  const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
  return receiveTelegramUpdate({ db: p.db, boss: p.boss, channel, body: update })
}
const lastUserText = (request: RecordedRequest) =>
  String(request.body.messages.findLast((m) => m.role === 'user')?.content ?? '')
const sentTexts = (bot: TestBot) => p.telegram.sentMessages(bot.token).map((m) => m.text)

describe('the reply worker', () => {
  it('answers a received message once, in its chat, with the model’s text', async () => {
    const bot = await p.newBot()
    const chatId = ++chats
    expect(await receive(bot, textUpdate(chatId, 'Where is my order?'))).toEqual({ stored: true })
    const [inbound] = await waitForSettled(p.db, bot.channelId)
    expect(inbound.status).toBe('replied')
    expect(p.telegram.sentMessages(bot.token)).toEqual([
      expect.objectContaining({
        chat: expect.objectContaining({ id: chatId }),
        text: 'Echo: Where is my order?',
      }),
    ])
  })

  it('the same update delivered 3 times, one after another and all at once: one message, one answer', async () => {
    const bot = await p.newBot()
    const update = textUpdate(++chats, 'Delivered again and again')
    const sequential = [await receive(bot, update), await receive(bot, update), await receive(bot, update)]
    expect(sequential.map((r) => r.stored)).toEqual([true, false, false])

    const burst = textUpdate(++chats, 'Delivered all at once')
    const concurrent = await Promise.all([receive(bot, burst), receive(bot, burst), receive(bot, burst)])
    expect(concurrent.filter((r) => r.stored)).toHaveLength(1)

    await waitForSettled(p.db, bot.channelId)
    await new Promise((resolve) => setTimeout(resolve, 300)) // any second answer would have gone by now
    expect((await messagesOf(p.db, bot.channelId, 'inbound')).map((m) => m.status)).toEqual([
      'replied',
      'replied',
    ])
    expect(sentTexts(bot).sort()).toEqual(['Echo: Delivered again and again', 'Echo: Delivered all at once'])
  })

  it('answers 5 quick messages of one conversation in order, each prompt holding the earlier ones', async () => {
    const bot = await p.newBot()
    const chatId = ++chats
    const tag = randomUUID().slice(0, 6)
    const texts = ['one', 'two', 'three', 'four', 'five'].map((n) => `${n} ${tag}`)
    // The first answers slowest: without ordering, the later ones would overtake it.
    p.model.enqueue({ delayMs: 400, match: texts[0] }, { delayMs: 200, match: texts[1] })
    for (const text of texts) await receive(bot, textUpdate(chatId, text))

    await waitForSettled(p.db, bot.channelId)
    expect(sentTexts(bot)).toEqual(texts.map((t) => `Echo: ${t}`))
    for (const [index, text] of texts.entries()) {
      const request = p.model.requests.find((r) => lastUserText(r) === text)
      const conversation = request?.body.messages.filter((m) => m.role !== 'system').map((m) => m.content)
      expect(conversation).toEqual(
        texts.slice(0, index + 1).flatMap((t, i) => (i < index ? [t, `Echo: ${t}`] : [t])),
      )
    }
  })

  it('answers other conversations while one waits for a slow model', async () => {
    const bot = await p.newBot()
    const [slowChat, quickChat] = [++chats, ++chats]
    const tag = randomUUID().slice(0, 6)
    p.model.enqueue({ delayMs: 3000, match: `slow ${tag}` })
    await receive(bot, textUpdate(slowChat, `slow ${tag}`))
    await receive(bot, textUpdate(quickChat, `quick ${tag}`))
    await waitFor(
      async () => sentTexts(bot),
      (texts) => texts.length === 2,
    )
    expect(sentTexts(bot)).toEqual([`Echo: quick ${tag}`, `Echo: slow ${tag}`])
  })

  describe('a job that fails for another reason than the model or the platform', () => {
    const job = (messageId: string, retryCount: number): Job<unknown> => ({
      id: randomUUID(),
      name: 'reply',
      data: { messageId },
      expireInSeconds: 60,
      heartbeatSeconds: null,
      retryCount,
      signal: new AbortController().signal,
    })
    const broken = () => ({
      ...p.deps,
      models: {
        generate: async () => {
          throw new TypeError('database connection lost')
        },
      },
    })

    it('is thrown for pg-boss to retry, and on the last attempt recorded on the message instead', async () => {
      const bot = await p.newBot()
      const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
      const noQueue = { send: async () => null } // stored as queued, but this worker will not see a job
      await receiveTelegramUpdate({ db: p.db, boss: noQueue, channel, body: textUpdate(++chats, 'unlucky') })
      const [inbound] = await messagesOf(p.db, bot.channelId)

      await expect(handleReplyJob(broken(), job(inbound.id, 0))).rejects.toThrow('database connection lost')
      expect((await messagesOf(p.db, bot.channelId))[0].status).toBe('queued')

      await handleReplyJob(broken(), job(inbound.id, REPLY_QUEUE_OPTIONS.retryLimit))
      expect((await messagesOf(p.db, bot.channelId))[0]).toMatchObject({
        status: 'failed',
        failureReason: 'Internal error: database connection lost',
      })
      expect(p.telegram.sentMessages(bot.token)).toEqual([])
    })

    it('fails only its own job in a batch: the others are answered and completed', async () => {
      const bot = await p.newBot()
      const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
      const noQueue = { send: async () => null }
      for (const text of ['lucky one', 'unlucky two'])
        await receiveTelegramUpdate({ db: p.db, boss: noQueue, channel, body: textUpdate(++chats, text) })
      const messages = await messagesOf(p.db, bot.channelId)
      const idOf = (text: string) => messages.find((m) => m.text === text)!.id
      const brokenForOne = {
        ...p.deps,
        models: {
          generate: (async (request) => {
            if (JSON.stringify(request).includes('unlucky')) throw new TypeError('database connection lost')
            return p.deps.models.generate(request)
          }) as typeof p.deps.models.generate,
        },
      }
      const [lucky, unlucky] = [job(idOf('lucky one'), 0), job(idOf('unlucky two'), 0)]

      expect(await handleReplyBatch(brokenForOne, [lucky, unlucky])).toEqual([
        { id: lucky.id, status: 'completed' },
        { id: unlucky.id, status: 'failed', output: { message: 'database connection lost' } },
      ])
      expect(sentTexts(bot)).toEqual(['Echo: lucky one'])
    })

    it('drops a job whose data it cannot read', async () => {
      await expect(
        handleReplyJob(p.deps, { ...job(randomUUID(), 0), data: { nope: 1 } }),
      ).resolves.toBeUndefined()
      expect(p.logs.some((line) => line.includes('reply job with unreadable data dropped'))).toBe(true)
    })
  })
})
