import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import { text } from 'node:stream/consumers'

/**
 * A local Telegram Bot API server for tests, spoken to over real HTTP the way grammY speaks to api.telegram.org:
 * `POST {apiRoot}/bot<token>/<method>` with a JSON or form-encoded body (or a query string), answered with
 * `{ ok: true, result }` or `{ ok: false, error_code, description, parameters? }` and that HTTP status. As on
 * Telegram, a malformed token gets 404 Not Found and a well-formed unknown one 401 Unauthorized.
 * With `port`, another process (the app under Playwright) can share it through a control API: GET /__fake/calls,
 * POST /__fake/bots {token, id?, username, firstName?}, /__fake/next {method, status, description?, retryAfter?,
 * token?, delayMs?}, /__fake/deliver {token, update} and /__fake/updates {token, updates} (for long polling).
 */

type Params = Record<string, unknown>
export type FakeUpdate = { update_id: number } & Params
/** `at`: wall-clock milliseconds (sub-millisecond) when the call was read, e.g. when a sendMessage was accepted. */
export type FakeCall = { method: string; token: string; params: Params; at: number }
type NewBot = { token: string; id?: number; username: string; firstName?: string }
type FakeBotUser = { id: number; is_bot: true; first_name: string; username: string }
export type FakeMessage = { message_id: number; date: number; chat: { id: number | string }; text: string }
/** One-shot answer to the next `method` call (of bot `token`): an error, or `raw` HTML; after `delayMs`. */
type FakeError = { status: number; description?: string; retryAfter?: number }
export type FakeBehaviour = FakeError & { token?: string; raw?: string; delayMs?: number }
type Bot = { user: FakeBotUser; updates: FakeUpdate[]; nextUpdateId: number; messages: FakeMessage[] }
type Answer = { ok: true; result: unknown } | { ok: false; error_code: number; description: string }

export type TelegramFake = {
  /** http://127.0.0.1:PORT, without a trailing slash, as grammY wants it. */
  apiRoot: string
  addBot(bot: NewBot): FakeBotUser
  calls: FakeCall[]
  webhooks: Map<string, { url: string; secretToken?: string }>
  enqueue(method: string, behaviour: FakeBehaviour): void
  /** Updates for getUpdates; an `update_id` is assigned where missing. Wakes a waiting long poll. */
  queueUpdates(token: string, updates: Params[]): FakeUpdate[]
  sentMessages(token: string): FakeMessage[]
  /** POSTs the update to the bot's webhook as Telegram does; returns the HTTP status the webhook answered. */
  deliverUpdate(token: string, update: Params): Promise<number>
  close(): Promise<void>
}

const GET_ME = { can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false }
const WEBHOOK_CONFLICT =
  "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"
const isRecord = (v: unknown): v is Params => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined)
const num = (v: unknown) => (v === undefined || v === '' ? undefined : Number(v))
const now = () => Math.floor(Date.now() / 1000)
const ok = (result: unknown): Answer => ({ ok: true, result })
function fail(error_code: number, description: string, parameters?: object): Answer {
  return { ok: false, error_code, description, ...(parameters && { parameters }) }
}
function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

/** Query string, then a JSON or form-encoded body (form values are strings, nested objects JSON text). */
async function paramsOf(req: IncomingMessage, url: URL): Promise<Params> {
  const raw = await text(req)
  const json = req.headers['content-type']?.includes('json')
  const body: unknown = !raw ? {} : json ? JSON.parse(raw) : Object.fromEntries(new URLSearchParams(raw))
  return { ...Object.fromEntries(url.searchParams), ...(isRecord(body) ? body : {}) }
}

export async function startTelegramFake(options: { port?: number } = {}): Promise<TelegramFake> {
  const bots = new Map<string, Bot>()
  const calls: FakeCall[] = []
  const webhooks: TelegramFake['webhooks'] = new Map()
  const behaviours: (FakeBehaviour & { method: string })[] = []
  const lastErrors = new Map<string, { last_error_date: number; last_error_message: string }>()
  const polls = new Map<() => void, ServerResponse>() // long polls in progress, by what wakes them
  let messageIds = 0
  let closing = false

  function addBot({ token, id = parseInt(token), username, firstName }: NewBot) {
    const user: FakeBotUser = { id, is_bot: true, first_name: firstName ?? username, username }
    bots.set(token, { user, updates: [], nextUpdateId: 1, messages: [] })
    return user
  }

  function withIds(bot: Bot, updates: Params[]): FakeUpdate[] {
    return updates.map((update) => {
      const update_id = num(update.update_id) ?? bot.nextUpdateId
      bot.nextUpdateId = Math.max(bot.nextUpdateId, update_id + 1)
      return { ...update, update_id }
    })
  }

  /** Until an update is queued, `seconds` pass, the client goes away or the server closes. */
  function waitForUpdates(seconds: number, res: ServerResponse) {
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer)
        polls.delete(wake)
        resolve()
      }
      const timer = setTimeout(wake, seconds * 1000)
      polls.set(wake, res)
      res.once('close', wake)
      if (closing) wake()
    })
  }

  async function botApi(token: string, method: string, p: Params, res: ServerResponse): Promise<Answer> {
    if (!/^\d+:[\w-]+$/.test(token)) return fail(404, 'Not Found')
    const bot = bots.get(token)
    if (!bot) return fail(401, 'Unauthorized')
    switch (method) {
      case 'getMe':
        return ok({ ...bot.user, ...GET_ME })
      case 'setWebhook': {
        const [url, secretToken] = [str(p.url), str(p.secret_token)]
        if (url === undefined) return fail(400, 'Bad Request: parameter "url" is required')
        if (!/^[\w-]{0,256}$/.test(secretToken ?? ''))
          return fail(400, 'Bad Request: secret token contains unallowed characters')
        if (url) webhooks.set(token, { url, secretToken })
        else webhooks.delete(token) // as on Telegram, an empty URL removes the webhook
        return ok(true)
      }
      case 'deleteWebhook':
        webhooks.delete(token)
        if (String(p.drop_pending_updates) === 'true') bot.updates = []
        return ok(true)
      case 'getWebhookInfo': {
        const info = { url: webhooks.get(token)?.url ?? '', has_custom_certificate: false }
        return ok({ ...info, pending_update_count: bot.updates.length, ...lastErrors.get(token) })
      }
      case 'sendMessage': {
        const [chatId, text] = [str(p.chat_id), str(p.text) ?? '']
        if (chatId === undefined) return fail(400, 'Bad Request: chat_id is empty')
        if (!text.trim()) return fail(400, 'Bad Request: message text is empty')
        if (text.length > 4096) return fail(400, 'Bad Request: message is too long')
        const chat = { id: /^-?\d+$/.test(chatId) ? Number(chatId) : chatId, type: 'private' }
        bot.messages.push({ message_id: ++messageIds, date: now(), chat, text })
        return ok({ ...bot.messages.at(-1), from: bot.user })
      }
      case 'sendChatAction':
        return str(p.chat_id) && str(p.action) ? ok(true) : fail(400, 'Bad Request: chat_id is empty')
      case 'getUpdates': {
        if (webhooks.has(token)) return fail(409, WEBHOOK_CONFLICT)
        // Asking from `offset` confirms every earlier update: Telegram forgets them.
        const offset = num(p.offset)
        if (offset !== undefined) bot.updates = bot.updates.filter((u) => u.update_id >= offset)
        const timeout = num(p.timeout) ?? 0
        if (bot.updates.length === 0 && timeout > 0) await waitForUpdates(timeout, res)
        return ok(bot.updates.slice(0, num(p.limit) ?? 100))
      }
      default:
        return fail(404, 'Not Found: method not found')
    }
  }

  async function deliverUpdate(token: string, update: Params) {
    const [bot, hook] = [bots.get(token), webhooks.get(token)]
    if (!bot || !hook) throw new Error(`The fake has no webhook for bot ${bot?.user.username ?? '(unknown)'}`)
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (hook.secretToken) headers['x-telegram-bot-api-secret-token'] = hook.secretToken
    const body = JSON.stringify(withIds(bot, [update])[0])
    const response = await fetch(hook.url, { method: 'POST', headers, body })
    await response.arrayBuffer()
    const last_error_message = `Wrong response from the webhook: ${response.status} ${response.statusText}`
    if (!response.ok) lastErrors.set(token, { last_error_date: now(), last_error_message })
    return response.status
  }

  function queueUpdates(token: string, updates: Params[]) {
    const bot = bots.get(token)
    if (!bot) throw new Error('The fake has no such bot')
    const queued = withIds(bot, updates)
    bot.updates.push(...queued)
    for (const wake of [...polls.keys()]) wake()
    return queued
  }

  async function control(route: string, body: Params): Promise<[number, unknown]> {
    const [s, n] = [(key: string) => str(body[key]), (key: string) => num(body[key])]
    const token = s('token') ?? ''
    const newBot = { token, id: n('id'), username: s('username') ?? 'bot', firstName: s('firstName') }
    const next = { method: s('method') ?? '', status: n('status') ?? 500, description: s('description') }
    switch (route) {
      case 'GET /__fake/calls':
        return [200, calls]
      case 'POST /__fake/bots':
        return [200, addBot(newBot)]
      case 'POST /__fake/next':
        behaviours.push({ ...next, retryAfter: n('retryAfter'), token: s('token'), delayMs: n('delayMs') })
        return [200, { queued: behaviours.length }]
      case 'POST /__fake/deliver':
        return [200, { status: await deliverUpdate(token, isRecord(body.update) ? body.update : {}) }]
      case 'POST /__fake/updates':
        return [200, queueUpdates(token, Array.isArray(body.updates) ? body.updates.filter(isRecord) : [])]
    }
    return [404, { error: `No route ${route}` }]
  }

  /** The queued behaviour's answer, undefined when there is none. */
  async function misbehave(token: string, method: string, res: ServerResponse) {
    const index = behaviours.findIndex((b) => b.method === method && (b.token ?? token) === token)
    if (index < 0) return undefined
    const [{ status, description, retryAfter, raw, delayMs }] = behaviours.splice(index, 1)
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs))
    if (raw !== undefined) return void res.writeHead(status, { 'content-type': 'text/html' }).end(raw)
    const fallback = status === 429 ? `Too Many Requests: retry after ${retryAfter}` : STATUS_CODES[status]
    const parameters = retryAfter === undefined ? undefined : { retry_after: retryAfter }
    return fail(status, description ?? fallback ?? 'Error', parameters)
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake')
    const [params, route] = [await paramsOf(req, url), `${req.method} ${url.pathname}`]
    if (url.pathname.startsWith('/__fake/')) return send(res, ...(await control(route, params)))
    const [, token, method] = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname) ?? []
    if (!token || !method) return send(res, 404, fail(404, 'Not Found'))
    calls.push({ method, token, params, at: performance.timeOrigin + performance.now() })
    const misbehaviour = await misbehave(token, method, res)
    if (res.headersSent) return // `raw`
    const answer = misbehaviour ?? (await botApi(token, method, params, res))
    send(res, answer.ok ? 200 : answer.error_code, answer)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, fail(500, `Fake failure: ${String(error)}`)))
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('The fake is not listening on TCP')

  return {
    apiRoot: `http://127.0.0.1:${address.port}`,
    addBot,
    calls,
    webhooks,
    enqueue: (method, behaviour) => void behaviours.push({ ...behaviour, method }),
    queueUpdates,
    sentMessages: (token) => bots.get(token)?.messages ?? [],
    deliverUpdate,
    async close() {
      closing = true
      const closed = new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())))
      // Long polls answer [] at once, and their answers go out before the sockets are cut.
      const answered = [...polls.values()].map((res) => new Promise((resolve) => res.once('close', resolve)))
      for (const wake of [...polls.keys()]) wake()
      await Promise.all(answered)
      server.closeAllConnections() // keep-alive sockets, and requests held by `delayMs`
      return closed
    },
  }
}
