import { randomInt, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPLY_QUEUE } from '~/services/messages/ingest/reply-queue.server'
import { setTelegramWebhook } from '~/services/channels/telegram.server'
import { assignAgent } from '~/services/channels/channels.server'
import type { Runtime } from '~/runtime/runtime.server'
import { startOpenAiFake, type OpenAiFake } from '../../tests/fakes/openai-server'
import { startTelegramFake, type TelegramFake } from '../../tests/fakes/telegram-server'
import { messagesOf, textUpdate, waitForSettled } from '../../tests/setup/pipeline'
import { serveRoutes } from '../../tests/setup/route-server'
import { bootRuntime } from '../../tests/setup/runtime'
import { newOwnerScope } from '../../tests/setup/scope'
import { connectTestBot, newBotToken, newTestAgent } from '../../tests/setup/tenant'
import * as telegramWebhook from './webhooks.telegram.$channelId'

const { action, loader } = telegramWebhook

// The whole process as the server boots it (configuration, database, pg-boss, the in-process worker), with this
// route served over HTTP to the Telegram fake, which delivers updates the way Telegram does.
let runtime: Runtime
let telegram: TelegramFake
let model: OpenAiFake
let http: Awaited<ReturnType<typeof serveRoutes>>
let booted: Awaited<ReturnType<typeof bootRuntime>>

beforeAll(async () => {
  ;[telegram, model, http] = await Promise.all([
    startTelegramFake(),
    startOpenAiFake(),
    serveRoutes([[/^\/webhooks\/telegram\/(?<channelId>[^/]+)$/, telegramWebhook]]),
  ])
  booted = await bootRuntime('webhook', {
    PUBLIC_URL: http.url,
    // Telegram (the fake) reaches this webhook on localhost: webhooks, not long polling.
    TELEGRAM_UPDATES: 'webhook',
    TELEGRAM_API_ROOT: telegram.apiRoot,
    LLM_BASE_URL: model.url,
    LLM_API_KEY: 'sk-test',
  })
  runtime = booted.runtime
})
afterAll(async () => {
  await booted.close()
  await Promise.all([telegram.close(), model.close(), http.close()])
})

async function newChannel({ agent = true } = {}) {
  const scope = await newOwnerScope(runtime.database.db)
  const botId = randomInt(1_000_000_000, 9_000_000_000)
  const deps = {
    publicUrl: runtime.config.publicUrl,
    telegramUpdates: runtime.config.telegramUpdates,
    encryptionKey: runtime.config.encryptionKey,
    telegram: runtime.telegram,
  }
  const bot = await connectTestBot(scope, telegram, deps, {
    token: newBotToken(botId),
    username: `hook_${botId}_bot`,
  })
  if (agent) {
    await assignAgent(scope, bot.channelId, {
      agentId: (await newTestAgent(scope, { name: 'Hook agent' })).id,
    })
  }
  return { scope, deps, token: bot.token, channelId: bot.channelId, secret: bot.secret }
}

const stored = (channelId: string) => messagesOf(runtime.database.db, channelId)
const jobCount = async () => (await runtime.boss.findJobs(REPLY_QUEUE)).length

function post(channelId: string, body: BodyInit, headers: Record<string, string> = {}) {
  const request = new Request(`http://127.0.0.1/webhooks/telegram/${channelId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  })
  return action({ request, params: { channelId }, context: {} })
}

describe('POST /webhooks/telegram/:channelId', () => {
  it('answers the very first message after a fresh boot (the queue is cached before serving)', async () => {
    const bot = await newChannel()
    const update = textUpdate(31337, 'First after boot')
    const status = await Promise.race([
      telegram.deliverUpdate(bot.token, update),
      new Promise((resolve) => setTimeout(() => resolve('hung'), 10_000)),
    ])
    expect(status).toBe(200)
    await waitForSettled(runtime.database.db, bot.channelId)
    expect(telegram.sentMessages(bot.token)).toEqual([
      expect.objectContaining({
        chat: expect.objectContaining({ id: 31337 }),
        text: 'Echo: First after boot',
      }),
    ])
  })

  it('takes Telegram’s redeliveries over HTTP once: one message, one answer', async () => {
    const bot = await newChannel()
    const update = textUpdate(4242, 'Are you there?')
    const statuses = [await telegram.deliverUpdate(bot.token, update)]
    statuses.push(...(await Promise.all([1, 2].map(() => telegram.deliverUpdate(bot.token, update)))))
    expect(statuses).toEqual([200, 200, 200])
    await waitForSettled(runtime.database.db, bot.channelId)
    expect((await stored(bot.channelId)).map((m) => [m.direction, m.status])).toEqual([
      ['inbound', 'replied'],
      ['outbound', 'sent'],
    ])
    expect(telegram.sentMessages(bot.token).map((m) => m.text)).toEqual(['Echo: Are you there?'])
  })

  it('answers a Spanish customer in Spanish, and sends the Spanish fallback when the model fails (issue 36)', async () => {
    const bot = await newChannel()
    await telegram.deliverUpdate(bot.token, textUpdate(5101, '¿Hacéis envíos a Valencia esta semana?'))
    await waitForSettled(runtime.database.db, bot.channelId)
    const asked = model.requests.find((r) => JSON.stringify(r.body).includes('Valencia esta semana'))
    expect(JSON.stringify(asked?.body)).toContain('Answer in Spanish')

    model.setBehavior({ status: 400, match: 'no me contestáis' })
    try {
      await telegram.deliverUpdate(bot.token, textUpdate(5102, '¿Por qué no me contestáis nunca por aquí?'))
      await waitForSettled(runtime.database.db, bot.channelId)
    } finally {
      model.setBehavior({})
    }
    const toFailed = telegram.sentMessages(bot.token).filter((m) => m.chat.id === 5102)
    expect(toFailed.map((m) => m.text)).toEqual([
      'Lo siento, ahora mismo no puedo responder; una persona se pondrá en contacto contigo.',
    ])
  })

  it('accepts and drops an update that carries no message, so that Telegram does not resend it', async () => {
    const bot = await newChannel()
    const response = await post(bot.channelId, JSON.stringify({ update_id: 5, edited_message: {} }), {
      'x-telegram-bot-api-secret-token': bot.secret,
    })
    expect(response.status).toBe(200)
    expect(await stored(bot.channelId)).toEqual([])
  })

  // Update kinds from the Bot API's Update object (core.telegram.org/bots/api#update) that we do not keep, and a
  // message without what we need: 200 and nothing stored, never 400 (Telegram would resend them, holding back the
  // updates after them). The text beside them is answered once.
  it('acknowledges every update kind it does not keep, storing nothing, and answers the text after them', async () => {
    const bot = await newChannel()
    const chat = { id: 5150, type: 'private', first_name: 'Ann' }
    const from = { id: 5150, is_bot: false, first_name: 'Ann' }
    const message = { message_id: 70, date: Math.floor(Date.now() / 1000), chat, from, text: 'edited text' }
    const others = [
      { edited_message: { ...message, edit_date: message.date + 5 } },
      {
        channel_post: { ...message, chat: { id: -100123, type: 'channel', title: 'News' }, from: undefined },
      },
      { edited_channel_post: { ...message, chat: { id: -100123, type: 'channel', title: 'News' } } },
      {
        my_chat_member: {
          chat,
          from,
          date: message.date,
          old_chat_member: { user: { id: 1, is_bot: true, first_name: 'Bot' }, status: 'member' },
          new_chat_member: { user: { id: 1, is_bot: true, first_name: 'Bot' }, status: 'kicked' },
        },
      },
      {
        message_reaction: {
          chat,
          message_id: 69,
          user: from,
          date: message.date,
          old_reaction: [],
          new_reaction: [{ type: 'emoji', emoji: '👍' }],
        },
      },
      { callback_query: { id: '4382bfdwdsb323b2d9', from, chat_instance: '42', data: 'yes' } },
      { message: { message_id: 71, date: message.date } }, // no chat: nothing to answer
      { message: { ...message, message_id: 72, from: { id: 9, is_bot: true, first_name: 'Other bot' } } },
    ]
    const headers = { 'x-telegram-bot-api-secret-token': bot.secret }
    for (const [i, update] of others.entries()) {
      const response = await post(bot.channelId, JSON.stringify({ update_id: 9000 + i, ...update }), headers)
      expect(response.status).toBe(200)
    }
    expect(await stored(bot.channelId)).toEqual([])
    expect(await telegram.deliverUpdate(bot.token, textUpdate(5150, 'Still open?'))).toBe(200)
    await waitForSettled(runtime.database.db, bot.channelId)
    expect(telegram.sentMessages(bot.token).map((m) => m.text)).toEqual(['Echo: Still open?'])
  })

  describe('refusals store and enqueue nothing', () => {
    const valid = () => JSON.stringify(textUpdate(777, 'should not be stored'))

    it.each([
      ['no secret', {}],
      ['a forged secret', { 'x-telegram-bot-api-secret-token': 'forged-secret-forged-secret-forged' }],
    ])('401 with %s', async (_, headers) => {
      const bot = await newChannel()
      const jobs = await jobCount()
      const response = await post(bot.channelId, valid(), headers)
      expect(response.status).toBe(401)
      expect(await response.json()).toEqual({ ok: false, message: 'Invalid webhook secret' })
      expect(await stored(bot.channelId)).toEqual([])
      expect(await jobCount()).toBe(jobs)
    })

    it('401 for a channel whose webhook is off, even with the old secret', async () => {
      const bot = await newChannel()
      await setTelegramWebhook(bot.scope, bot.channelId, false, bot.deps)
      const response = await post(bot.channelId, valid(), { 'x-telegram-bot-api-secret-token': bot.secret })
      expect(response.status).toBe(401)
    })

    it('404 for an unknown channel, or an id that is not one', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const response = await post(id, valid(), { 'x-telegram-bot-api-secret-token': 'whatever' })
        expect(response.status).toBe(404)
      }
    })

    it.each([
      ['malformed JSON', '{"update_id": 1, "message": '],
      ['JSON that is not an update', JSON.stringify({ hello: 'world' })],
      ['an update without its update_id', JSON.stringify({ message: textUpdate(1, 'x').message })],
    ])('400 for %s', async (_, body) => {
      const bot = await newChannel()
      const jobs = await jobCount()
      const response = await post(bot.channelId, body, { 'x-telegram-bot-api-secret-token': bot.secret })
      expect(response.status).toBe(400)
      expect(await stored(bot.channelId)).toEqual([])
      expect(await jobCount()).toBe(jobs)
    })

    it('413 for a body over 1 MB, declared or streamed without a length', async () => {
      const bot = await newChannel()
      const secret = { 'x-telegram-bot-api-secret-token': bot.secret }
      const big = JSON.stringify({ ...textUpdate(778, 'x'), padding: 'x'.repeat(2 * 1024 * 1024) })
      expect((await post(bot.channelId, big, secret)).status).toBe(413)

      const chunk = new TextEncoder().encode('x'.repeat(64 * 1024))
      let sent = 0
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 40) controller.enqueue(chunk)
          else controller.close()
        },
      })
      expect((await post(bot.channelId, stream, secret)).status).toBe(413)
      expect(sent).toBeLessThan(40) // reading stopped at the limit
      expect(await stored(bot.channelId)).toEqual([])
    })

    it('405 for anything but POST', async () => {
      expect(loader().status).toBe(405)
      const request = new Request('http://127.0.0.1/webhooks/telegram/x', { method: 'PUT', body: '{}' })
      expect((await action({ request, params: { channelId: 'x' }, context: {} })).status).toBe(405)
    })
  })
})
