import { createServer } from 'node:http'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { makePdf } from '../../../tests/fakes/documents'
import { sha256Of } from '../../../tests/fakes/hash'
import { photo } from '../../../tests/fakes/photo'
import { startTelegramFake, type TelegramFake } from '../../../tests/fakes/telegram-server'
import { telegramTokenSchema } from '~/lib/channels/telegram'
import { withPlatformRetries } from '../platform-errors'
import { BOT_TOKEN_INVALID_MESSAGE, createTelegramClient, PlatformError } from './bot-api.server'

let fake: TelegramFake
beforeAll(async () => {
  fake = await startTelegramFake()
})
afterAll(() => fake.close())

const client = (timeoutMs = 5_000) => createTelegramClient({ apiRoot: fake.apiRoot, timeoutMs })

let bots = 0
/** A bot of this test's own, with a well-formed token whose secret part is easy to look for. */
function newBot() {
  bots += 1
  const id = 7_000_000_000 + bots
  const secret = `S3cretPart${bots}_`.padEnd(35, 'x')
  const token = `${id}:${secret}`
  const username = `reply_pilot_${bots}_bot`
  fake.addBot({ token, username, firstName: 'Reply Pilot' })
  return { token, secret, id, username }
}

/** Expects the call to fail with a PlatformError that nowhere mentions the token, and returns it. */
async function failure(call: Promise<unknown>, token: string): Promise<PlatformError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  if (!(error instanceof PlatformError)) throw new Error(`expected a PlatformError, got ${String(error)}`)
  const secret = token.split(':')[1]
  for (const text of [error.message, error.stack ?? '', JSON.stringify(error), String(error)]) {
    expect(text).not.toContain(token)
    expect(text).not.toContain(secret)
  }
  expect(error.cause).toBeUndefined()
  expect(error.platform).toBe('telegram')
  return error
}

describe('getMe', () => {
  it("returns the bot's identity and capabilities", async () => {
    const bot = newBot()
    await expect(client().getMe(bot.token)).resolves.toEqual({
      id: bot.id,
      username: bot.username,
      firstName: 'Reply Pilot',
      canJoinGroups: true,
      canReadAllGroupMessages: false,
      supportsInlineQueries: false,
    })
    expect(fake.calls.at(-1)).toMatchObject({ method: 'getMe', token: bot.token })
  })

  it('says "Bot token is invalid or expired" for a token Telegram does not know (401), and never the token', async () => {
    const token = `123456:${'Unknown_Token-'.padEnd(35, 'z')}`
    const error = await failure(client().getMe(token), token)
    expect(error).toMatchObject({
      code: 'AUTH_TOKEN_INVALID',
      message: BOT_TOKEN_INVALID_MESSAGE,
      status: 401,
      retryable: false,
    })
    expect(error.message).toBe('Bot token is invalid or expired')
  })

  it('treats the 404 Telegram gives a malformed token the same way', async () => {
    const token = 'not-a-token'
    const error = await failure(client().getMe(token), token)
    expect(error).toMatchObject({
      code: 'AUTH_TOKEN_INVALID',
      message: BOT_TOKEN_INVALID_MESSAGE,
      status: 404,
    })
  })

  it('refuses a token that would change the URL without sending it anywhere', async () => {
    const before = fake.calls.length
    const token = '123:abc/../../__fake/calls?'
    const error = await failure(client().getMe(token), token)
    expect(error).toMatchObject({ code: 'AUTH_TOKEN_INVALID', status: undefined })
    expect(fake.calls.length).toBe(before)
  })

  it('accepts an API root with a trailing slash', async () => {
    const bot = newBot()
    const trailing = createTelegramClient({ apiRoot: `${fake.apiRoot}/` })
    await expect(trailing.getMe(bot.token)).resolves.toMatchObject({ id: bot.id })
  })
})

describe('webhooks', () => {
  it('sets the webhook with its secret, reports it, and deletes it', async () => {
    const bot = newBot()
    const telegram = client()
    await telegram.setWebhook(bot.token, {
      url: 'https://replypilot.example/webhooks/telegram/ch_1',
      secretToken: 'secret_ABC-123',
      allowedUpdates: ['message'],
    })
    expect(fake.webhooks.get(bot.token)).toEqual({
      url: 'https://replypilot.example/webhooks/telegram/ch_1',
      secretToken: 'secret_ABC-123',
    })
    expect(fake.calls.at(-1)?.params).toMatchObject({ allowed_updates: ['message'] })
    await expect(telegram.getWebhookInfo(bot.token)).resolves.toEqual({
      url: 'https://replypilot.example/webhooks/telegram/ch_1',
      pendingUpdateCount: 0,
      lastErrorMessage: undefined,
    })

    await telegram.deleteWebhook(bot.token)
    expect(fake.webhooks.has(bot.token)).toBe(false)
    await expect(telegram.getWebhookInfo(bot.token)).resolves.toMatchObject({ url: '' })
  })

  it("passes on Telegram's description for a refused webhook (400)", async () => {
    const bot = newBot()
    const error = await failure(
      client().setWebhook(bot.token, { url: 'https://x.example/hook', secretToken: 'has spaces!' }),
      bot.token,
    )
    expect(error).toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 400,
      retryable: false,
      message: 'Bad Request: secret token contains unallowed characters',
    })
  })

  it('the fake delivers an update to the webhook with the secret header, and records a failing webhook', async () => {
    const bot = newBot()
    const received: { secret: unknown; body: string }[] = []
    let answer = 200
    const receiver = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
      req.on('end', () => {
        received.push({ secret: req.headers['x-telegram-bot-api-secret-token'], body })
        res.writeHead(answer).end()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    const address = receiver.address()
    if (address === null || typeof address === 'string') throw new Error('not listening')
    try {
      const telegram = client()
      await telegram.setWebhook(bot.token, {
        url: `http://127.0.0.1:${address.port}/webhooks/telegram/ch_2`,
        secretToken: 'hook-secret',
      })
      const update = { message: { message_id: 5, date: 1, chat: { id: 42, type: 'private' }, text: 'hi' } }
      await expect(fake.deliverUpdate(bot.token, update)).resolves.toBe(200)
      expect(received[0].secret).toBe('hook-secret')
      expect(JSON.parse(received[0].body)).toMatchObject({ update_id: expect.any(Number), ...update })

      answer = 500
      await expect(fake.deliverUpdate(bot.token, update)).resolves.toBe(500)
      await expect(telegram.getWebhookInfo(bot.token)).resolves.toMatchObject({
        lastErrorMessage: 'Wrong response from the webhook: 500 Internal Server Error',
      })
    } finally {
      receiver.closeAllConnections()
      await new Promise((resolve) => receiver.close(resolve))
    }
  })
})

describe('sendMessage and sendChatAction', () => {
  it('sends the text, as a reply when asked, and returns the message id', async () => {
    const bot = newBot()
    const telegram = client()
    const first = await telegram.sendMessage(bot.token, { chatId: 42, text: 'Hello!' })
    const second = await telegram.sendMessage(bot.token, { chatId: '42', text: 'Again', replyToMessageId: 9 })
    expect(second.messageId).toBeGreaterThan(first.messageId)
    expect(fake.sentMessages(bot.token)).toMatchObject([
      { message_id: first.messageId, chat: { id: 42 }, text: 'Hello!' },
      { message_id: second.messageId, chat: { id: 42 }, text: 'Again' },
    ])
    expect(fake.calls.at(-1)?.params).toMatchObject({
      reply_parameters: { message_id: 9, allow_sending_without_reply: true },
    })

    await telegram.sendChatAction(bot.token, { chatId: 42, action: 'typing' })
    expect(fake.calls.at(-1)).toMatchObject({
      method: 'sendChatAction',
      params: { chat_id: 42, action: 'typing' },
    })
  })

  it('gives RATE_LIMITED with retry_after in ms for a 429', async () => {
    const bot = newBot()
    fake.enqueue('sendMessage', { status: 429, retryAfter: 7, token: bot.token })
    const error = await failure(client().sendMessage(bot.token, { chatId: 1, text: 'x' }), bot.token)
    expect(error).toMatchObject({
      code: 'RATE_LIMITED',
      status: 429,
      retryable: true,
      retryAfterMs: 7000,
      message: 'Rate limit exceeded',
    })
    expect(fake.sentMessages(bot.token)).toEqual([])
  })

  it.each([
    [500, 'SERVER_ERROR'],
    [502, 'SERVICE_UNAVAILABLE'],
    [503, 'SERVICE_UNAVAILABLE'],
    [507, 'SERVER_ERROR'],
  ])('gives a retryable error for a %i from Telegram', async (status, code) => {
    const bot = newBot()
    fake.enqueue('sendMessage', { status, token: bot.token })
    const error = await failure(client().sendMessage(bot.token, { chatId: 1, text: 'x' }), bot.token)
    expect(error).toMatchObject({ code, status, retryable: true })
  })

  it("keeps Telegram's words for a refused message (400) and a blocked bot (403)", async () => {
    const bot = newBot()
    const empty = await failure(client().sendMessage(bot.token, { chatId: 1, text: ' ' }), bot.token)
    expect(empty).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Bad Request: message text is empty' })

    fake.enqueue('sendMessage', {
      status: 403,
      description: 'Forbidden: bot was blocked by the user',
      token: bot.token,
    })
    const blocked = await failure(client().sendMessage(bot.token, { chatId: 1, text: 'x' }), bot.token)
    expect(blocked).toMatchObject({
      code: 'AUTH_TOKEN_MISSING',
      status: 403,
      retryable: false,
      message: 'Forbidden: bot was blocked by the user',
    })
  })

  it("gives SERVICE_UNAVAILABLE for a proxy's HTML error page instead of the Bot API's JSON", async () => {
    const bot = newBot()
    fake.enqueue('sendMessage', { status: 502, raw: '<html>502 Bad Gateway</html>', token: bot.token })
    const error = await failure(client().sendMessage(bot.token, { chatId: 1, text: 'x' }), bot.token)
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryable: true })
  })

  it('gives TIMEOUT_ERROR when Telegram does not answer in time', async () => {
    const bot = newBot()
    fake.enqueue('sendMessage', { status: 500, delayMs: 1000, token: bot.token })
    const error = await failure(client(150).sendMessage(bot.token, { chatId: 1, text: 'x' }), bot.token)
    expect(error).toMatchObject({ code: 'TIMEOUT_ERROR', message: 'Request timed out', retryable: true })
  })

  it('gives NETWORK_ERROR when nothing listens, without the token that is in the failed URL', async () => {
    const closed = await startTelegramFake()
    const apiRoot = closed.apiRoot
    await closed.close()
    const token = `555:${'Network_Secret-'.padEnd(35, 'q')}`
    const error = await failure(createTelegramClient({ apiRoot }).getMe(token), token)
    expect(error).toMatchObject({
      code: 'NETWORK_ERROR',
      message: 'Network error - unable to reach server',
      retryable: true,
      status: undefined,
    })
  })

  it('sends once through withPlatformRetries after a 429 with retry_after 1', async () => {
    const bot = newBot()
    fake.enqueue('sendMessage', { status: 429, retryAfter: 1, token: bot.token })
    const delays: number[] = []
    const telegram = client()
    const sent = await withPlatformRetries(
      () => telegram.sendMessage(bot.token, { chatId: 7, text: 'Once' }),
      {
        sleep: async (ms) => void delays.push(ms),
      },
    )
    expect(delays).toEqual([1000])
    expect(fake.sentMessages(bot.token)).toEqual([
      expect.objectContaining({ message_id: sent.messageId, text: 'Once' }),
    ])
    expect(fake.calls.filter((call) => call.token === bot.token).map((call) => call.method)).toEqual([
      'sendMessage',
      'sendMessage',
    ])
  })
})

describe('sendFile', () => {
  const png = new Uint8Array(photo())
  const pdf = makePdf([['Invoice 12']])

  it('uploads a photo with its caption and a document under its name, byte for byte', async () => {
    const bot = newBot()
    const telegram = client()
    const shown = await telegram.sendFile(bot.token, {
      chatId: 42,
      file: {
        bytes: png,
        contentType: 'image/png',
        fileName: 'order.png',
        kind: 'photo',
        caption: 'Your order',
      },
    })
    const fileName = 'Счёт № 12 (final).pdf'
    const document = await telegram.sendFile(bot.token, {
      chatId: '42',
      file: { bytes: pdf, contentType: 'application/pdf', fileName, kind: 'file' },
    })
    expect(document.messageId).toBeGreaterThan(shown.messageId)
    // grammY declares every upload application/octet-stream: Telegram reads the type from the bytes.
    const [sentPhoto, sentDocument] = fake.sentFiles(bot.token)
    expect(sentPhoto).toMatchObject({
      chatId: 42,
      method: 'sendPhoto',
      fileName: 'order.png',
      caption: 'Your order',
    })
    expect(sentDocument).toMatchObject({ chatId: 42, method: 'sendDocument', fileName })
    expect(sentDocument.caption).toBeUndefined()
    expect(new Uint8Array(sentPhoto.bytes)).toEqual(png)
    expect(new Uint8Array(sentDocument.bytes)).toEqual(pdf)
    expect(fake.sentMessages(bot.token)).toMatchObject([
      { message_id: shown.messageId, text: 'Your order', file: { sha256: sha256Of(png) } },
      { message_id: document.messageId, text: '', file: { sha256: sha256Of(pdf), fileName } },
    ])

    // What an e2e test in another process reads: the file as its name, size and hash, not its bytes.
    const calls: unknown = await (await fetch(`${fake.apiRoot}/__fake/calls`)).json()
    expect(calls).toContainEqual(
      expect.objectContaining({
        method: 'sendPhoto',
        token: bot.token,
        params: expect.objectContaining({
          caption: 'Your order',
          photo: {
            fileName: 'order.png',
            contentType: 'application/octet-stream',
            size: png.byteLength,
            sha256: sha256Of(png),
          },
        }),
      }),
    )
  })

  it("keeps Telegram's words for a refused upload, and never names the token", async () => {
    const bot = newBot()
    const file = { bytes: png, contentType: 'image/png', fileName: 'a.png', kind: 'photo' } as const
    const long = await failure(
      client().sendFile(bot.token, { chatId: 1, file: { ...file, caption: 'x'.repeat(1025) } }),
      bot.token,
    )
    expect(long).toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 400,
      retryable: false,
      message: 'Bad Request: message caption is too long',
    })
    const big = new Uint8Array(10 * 1024 * 1024 + 1)
    const tooBig = await failure(
      client().sendFile(bot.token, { chatId: 1, file: { ...file, bytes: big } }),
      bot.token,
    )
    expect(tooBig).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, retryable: false })

    const unknown = `123456:${'Unknown_Upload-'.padEnd(35, 'u')}`
    const refused = await failure(client().sendFile(unknown, { chatId: 1, file }), unknown)
    expect(refused).toMatchObject({ code: 'AUTH_TOKEN_INVALID', status: 401, retryable: false })

    fake.enqueue('sendPhoto', { status: 429, retryAfter: 3, token: bot.token })
    const limited = await failure(client().sendFile(bot.token, { chatId: 1, file }), bot.token)
    expect(limited).toMatchObject({ code: 'RATE_LIMITED', retryable: true, retryAfterMs: 3000 })
    expect(fake.sentFiles(bot.token)).toEqual([])
  })

  it('gives an upload longer than a call: a slow answer is not a timeout', async () => {
    const bot = newBot()
    fake.enqueue('sendDocument', { status: 500, delayMs: 400, token: bot.token })
    const file = { bytes: pdf, contentType: 'application/pdf', fileName: 'a.pdf', kind: 'file' } as const
    const error = await failure(client(150).sendFile(bot.token, { chatId: 1, file }), bot.token)
    expect(error).toMatchObject({ code: 'SERVER_ERROR', retryable: true })
  })
})

describe('getUpdates (long polling)', () => {
  const message = (text: string) => ({
    message: {
      message_id: 1,
      date: 1,
      chat: { id: 42, type: 'private' },
      from: { id: 42, is_bot: false },
      text,
    },
  })

  it('returns queued updates at once and forgets those before the offset', async () => {
    const bot = newBot()
    const telegram = client()
    const [first, second] = fake.queueUpdates(bot.token, [message('one'), message('two')])

    const updates = await telegram.getUpdates(bot.token, { timeoutSeconds: 10 })
    expect(updates.map((u) => [u.update_id, u.message?.text])).toEqual([
      [first.update_id, 'one'],
      [second.update_id, 'two'],
    ])
    const rest = await telegram.getUpdates(bot.token, { offset: first.update_id + 1, timeoutSeconds: 10 })
    expect(rest.map((u) => u.message?.text)).toEqual(['two'])
    await expect(telegram.getUpdates(bot.token, { offset: second.update_id + 1 })).resolves.toEqual([])
  })

  it('waits for an update that arrives during the poll', async () => {
    const bot = newBot()
    const started = Date.now()
    const poll = client(1000).getUpdates(bot.token, { timeoutSeconds: 5 })
    setTimeout(() => fake.queueUpdates(bot.token, [message('late')]), 200)
    const updates = await poll
    expect(updates.map((u) => u.message?.text)).toEqual(['late'])
    expect(Date.now() - started).toBeLessThan(3000) // answered on arrival, and not cut by the 1 s request timeout
  })

  it('answers an empty list when the poll times out', async () => {
    const bot = newBot()
    await expect(client().getUpdates(bot.token, { timeoutSeconds: 1 })).resolves.toEqual([])
  })

  it('answers an empty list at once when the server closes during the poll', async () => {
    const own = await startTelegramFake()
    const token = `99:${'Closing_Server-'.padEnd(35, 'c')}`
    own.addBot({ token, username: 'closing_bot' })
    const poll = createTelegramClient({ apiRoot: own.apiRoot }).getUpdates(token, { timeoutSeconds: 30 })
    await vi.waitFor(() => expect(own.calls).toHaveLength(1))
    const started = Date.now()
    await own.close()
    await expect(poll).resolves.toEqual([])
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('rejects with the reason when the caller aborts', async () => {
    const bot = newBot()
    const controller = new AbortController()
    const poll = client().getUpdates(bot.token, { timeoutSeconds: 10, signal: controller.signal })
    const reason = new Error('shutting down')
    setTimeout(() => controller.abort(reason), 100)
    await expect(poll).rejects.toBe(reason)
  })

  it("gets Telegram's 409 while a webhook is set", async () => {
    const bot = newBot()
    const telegram = client()
    await telegram.setWebhook(bot.token, { url: 'https://x.example/hook', secretToken: 's' })
    const error = await failure(telegram.getUpdates(bot.token), bot.token)
    expect(error).toMatchObject({ code: 'UNKNOWN_ERROR', status: 409, retryable: false })
    expect(error.message).toMatch(/^Conflict: can't use getUpdates method while webhook is active/)
  })

  it("ends a waiting poll with Telegram's 409 when another getUpdates of the bot comes in", async () => {
    const bot = newBot()
    const first = client().getUpdates(bot.token, { timeoutSeconds: 10 })
    await vi.waitFor(() => expect(fake.calls.filter((c) => c.token === bot.token)).toHaveLength(1))
    const second = client().getUpdates(bot.token, { timeoutSeconds: 1 })
    const error = await failure(first, bot.token)
    expect(error).toMatchObject({ status: 409 })
    expect(error.message).toMatch(/^Conflict: terminated by other getUpdates request/)
    await expect(second).resolves.toEqual([])
    expect(fake.conflicts(bot.token)).toBe(1)
  })

  it('keeps to allowed_updates from then on, as Telegram does', async () => {
    const bot = newBot()
    const telegram = client()
    await telegram.getUpdates(bot.token, { allowedUpdates: ['message'] })
    const edit = { edited_message: message('changed').message }
    const [kept] = fake.queueUpdates(bot.token, [edit, message('new')])
    const updates = await telegram.getUpdates(bot.token)
    expect(updates).toEqual([
      expect.objectContaining({ update_id: kept.update_id, message: expect.anything() }),
    ])
  })
})

describe('telegramTokenSchema', () => {
  const valid = `123456789:${'AAHdqTcvCH1vGWJxfSeofSAs0K5PALDs_-'.padEnd(35, 'w')}`
  const messages = (value: unknown) => {
    const result = telegramTokenSchema.safeParse(value)
    return result.success ? [] : result.error.issues.map((issue) => issue.message)
  }

  it('trims and accepts an id, a colon and 35 token characters', () => {
    expect(telegramTokenSchema.parse(`  ${valid}\n`)).toBe(valid)
  })

  it('says "Bot token is required" alone for an empty token', () => {
    expect(messages('')).toEqual(['Bot token is required'])
    expect(messages('   ')).toEqual(['Bot token is required'])
    expect(messages(undefined)).toEqual(['Bot token is required'])
  })

  it('says "Invalid bot token format" otherwise', () => {
    for (const token of [
      valid.slice(0, -1),
      `${valid}a`,
      valid.replace(':', ''),
      `abc${valid}`,
      valid.replace('_', '.'),
    ]) {
      expect(messages(token)).toEqual(['Invalid bot token format'])
    }
  })
})
