import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import { buffer } from 'node:stream/consumers'
import { fileInfo, isMultipart, parseMultipart, type UploadedFile, type UploadedFileInfo } from './multipart'

/**
 * A local Telegram Bot API server for tests, spoken to over real HTTP the way grammY speaks to api.telegram.org:
 * `POST {apiRoot}/bot<token>/<method>` with a JSON, form-encoded or multipart body (or a query string), answered
 * with `{ ok: true, result }` or `{ ok: false, error_code, description, parameters? }` and that HTTP status. As on
 * Telegram, a malformed token gets 404 Not Found and a well-formed unknown one 401 Unauthorized.
 * With `port`, another process (the app under Playwright) can share it through a control API: GET /__fake/calls,
 * POST /__fake/bots {token, id?, username, firstName?}, /__fake/next {method, status, description?, retryAfter?,
 * token?, delayMs?}, /__fake/deliver {token, update}, /__fake/updates {token, updates} (for long polling) and
 * /__fake/files {token, base64, size?} (a file a customer sent; answers its file_id).
 * Files: `getFile` answers a file_path (400 "file is too big" over 20 MB, as the Bot API), and
 * `GET {apiRoot}/file/bot<token>/<file_path>` serves the bytes, each download counted in `calls` as method `file`.
 * Uploads: `sendPhoto` (field `photo`, at most 10 MB) and `sendDocument` (field `document`, at most 50 MB, the Bot
 * API's upload limit) take a multipart file, sent under the field's name or, as grammY sends it, as
 * `attach://<part>`; a `caption` has 1024 characters at most. The message is recorded as sendMessage's are (its
 * `text` is the caption), the file in `sentFiles`, and `calls` shows the file as { fileName, contentType, size,
 * sha256 } instead of its bytes. A sent file can be read back with getFile, as on Telegram.
 */

type Params = Record<string, unknown>
export type FakeUpdate = { update_id: number } & Params
/** `at`: wall-clock milliseconds (sub-millisecond) when the call was read, e.g. when a sendMessage was accepted. */
export type FakeCall = { method: string; token: string; params: Params; at: number }
type NewBot = { token: string; id?: number; username: string; firstName?: string }
type FakeBotUser = { id: number; is_bot: true; first_name: string; username: string }
/** A message the bot sent: a text, or a photo or document (`file`) whose `text` is its caption, or ''. */
export type FakeMessage = {
  message_id: number
  date: number
  chat: { id: number | string }
  text: string
  caption?: string
  file?: UploadedFileInfo
}
export type FakeSentFile = {
  chatId: number | string
  method: 'sendPhoto' | 'sendDocument'
  fileName: string
  /** As the upload declared it: grammY says application/octet-stream for every file (Telegram sniffs the bytes). */
  contentType: string
  bytes: Uint8Array
  caption?: string
}
/**
 * One-shot answer to the next `method` call (of bot `token`): an error, or `raw` HTML, or with `reset` no answer at
 * all (the connection is destroyed, as a dropped kept-alive connection is); after `delayMs`.
 */
type FakeError = { status: number; description?: string; retryAfter?: number }
export type FakeBehaviour = FakeError & { token?: string; raw?: string; reset?: boolean; delayMs?: number }
type Bot = {
  user: FakeBotUser
  updates: FakeUpdate[]
  nextUpdateId: number
  messages: FakeMessage[]
  files: FakeSentFile[]
  /** The update kinds last asked for (getUpdates or setWebhook `allowed_updates`); Telegram keeps the setting. */
  allowedUpdates?: string[]
  /** The long poll waiting now: a newer getUpdates ends it with 409, as on Telegram. */
  poll?: { wake: () => void; conflict: boolean }
  /** How many getUpdates were cut off by a concurrent one (two pollers for one bot). */
  conflicts: number
}
type Answer = { ok: true; result: unknown } | { ok: false; error_code: number; description: string }

export type TelegramFake = {
  /** http://127.0.0.1:PORT, without a trailing slash, as grammY wants it. */
  apiRoot: string
  addBot(bot: NewBot): FakeBotUser
  calls: FakeCall[]
  webhooks: Map<string, { url: string; secretToken?: string }>
  enqueue(method: string, behaviour: FakeBehaviour): void
  /**
   * Updates for getUpdates; an `update_id` is assigned where missing (one already given is kept, so a test can
   * redeliver). Updates of a kind outside the bot's `allowed_updates` are dropped, as Telegram does not keep
   * them. Wakes the bot's waiting long poll.
   */
  queueUpdates(token: string, updates: Params[]): FakeUpdate[]
  /** getUpdates requests of the bot answered 409 because another one came in meanwhile. */
  conflicts(token: string): number
  /** Updates queued and not yet confirmed by a getUpdates `offset`. */
  pendingUpdates(token: string): FakeUpdate[]
  sentMessages(token: string): FakeMessage[]
  /** The photos and documents the bot sent (sendPhoto, sendDocument), bytes and all. */
  sentFiles(token: string): FakeSentFile[]
  /**
   * A file a customer sent to the bot, as getFile and the download serve it; `size` pretends it is that large (a
   * file over 20 MB is refused by getFile, as Telegram does). Returns the file_id for the update.
   */
  addFile(
    token: string,
    bytes: Uint8Array,
    options?: { size?: number },
  ): { file_id: string; file_size: number }
  /** POSTs the update to the bot's webhook as Telegram does; returns the HTTP status the webhook answered. */
  deliverUpdate(token: string, update: Params): Promise<number>
  close(): Promise<void>
}

/** The Bot API's limit on the files a bot may download. */
const FILE_MAX_BYTES = 20 * 1024 * 1024
type FakeFile = { token: string; bytes: Uint8Array; size: number; path: string }
const MB = 1024 * 1024
/**
 * What Telegram takes by upload, and how it refuses more: PHOTO_SAVE_FILE_INVALID is what Telegram has been seen to
 * answer for a photo over 10 MB; a body over the Bot API's 50 MB is an HTTP 413.
 */
const UPLOADS = {
  sendPhoto: {
    field: 'photo',
    folder: 'photos',
    maxBytes: 10 * MB,
    refusal: { status: 400, description: 'Bad Request: PHOTO_SAVE_FILE_INVALID' },
  },
  sendDocument: {
    field: 'document',
    folder: 'documents',
    maxBytes: 50 * MB,
    refusal: { status: 413, description: 'Request Entity Too Large' },
  },
} as const
const CAPTION_MAX_CHARACTERS = 1024

const GET_ME = { can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false }
const WEBHOOK_CONFLICT =
  "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"
const POLL_CONFLICT =
  'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running'
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

type Uploads = Record<string, UploadedFile>

/**
 * Query string, then a JSON, form-encoded or multipart body (form values are strings, nested objects JSON text).
 * A multipart file is in `uploads` under its parameter (sent under that name, or as `attach://<part>`) and in the
 * params as its UploadedFileInfo.
 */
async function paramsOf(req: IncomingMessage, url: URL): Promise<{ params: Params; uploads: Uploads }> {
  const [raw, type] = [await buffer(req), req.headers['content-type']]
  const query = Object.fromEntries(url.searchParams)
  if (isMultipart(type)) return multipartParams(query, parseMultipart(raw, type ?? ''))
  const json = type?.includes('json')
  const text = raw.toString('utf8')
  const body: unknown = !text ? {} : json ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text))
  return { params: { ...query, ...(isRecord(body) ? body : {}) }, uploads: {} }
}

function multipartParams(query: Params, { fields, files }: ReturnType<typeof parseMultipart>) {
  const uploads: Uploads = {}
  const attached = new Set<string>()
  for (const [key, value] of Object.entries(fields)) {
    const part = value.startsWith('attach://') ? value.slice('attach://'.length) : undefined
    if (part === undefined || !files[part]) continue
    uploads[key] = files[part]
    attached.add(part)
  }
  for (const [key, file] of Object.entries(files)) if (!attached.has(key)) uploads[key] = file
  const infos = Object.fromEntries(Object.entries(uploads).map(([key, file]) => [key, fileInfo(file)]))
  return { params: { ...query, ...fields, ...infos }, uploads }
}

export async function startTelegramFake(options: { port?: number } = {}): Promise<TelegramFake> {
  const bots = new Map<string, Bot>()
  const calls: FakeCall[] = []
  const webhooks: TelegramFake['webhooks'] = new Map()
  const behaviours: (FakeBehaviour & { method: string })[] = []
  const lastErrors = new Map<string, { last_error_date: number; last_error_message: string }>()
  const polls = new Map<() => void, ServerResponse>() // long polls in progress, by what wakes them
  const files = new Map<string, FakeFile>() // by file_id
  let messageIds = 0
  let fileIds = 0
  let closing = false

  function addFile(
    token: string,
    bytes: Uint8Array,
    { size }: { size?: number } = {},
    { folder = 'voice', extension = '.oga' } = {},
  ) {
    const file_id = `file-${++fileIds}-${'x'.repeat(20)}`
    const path = `${folder}/file_${fileIds}${extension}`
    files.set(file_id, { token, bytes, size: size ?? bytes.byteLength, path })
    return { file_id, file_size: size ?? bytes.byteLength }
  }

  /** sendPhoto and sendDocument: the upload, checked as Telegram does, sent as a message with its caption. */
  function sendFile(token: string, bot: Bot, method: keyof typeof UPLOADS, p: Params, uploads: Uploads) {
    const { field, folder, maxBytes, refusal } = UPLOADS[method]
    const [chatId, caption, upload] = [str(p.chat_id), str(p.caption) || undefined, uploads[field]]
    if (chatId === undefined) return fail(400, 'Bad Request: chat_id is empty')
    // A string is a file_id or a URL to fetch: neither is what this fake serves.
    if (!upload && typeof p[field] === 'string')
      return fail(400, 'Bad Request: wrong file identifier/HTTP URL specified')
    if (!upload) return fail(400, `Bad Request: there is no ${field} in the request`)
    if (upload.bytes.byteLength === 0) return fail(400, 'Bad Request: file must be non-empty')
    if (upload.bytes.byteLength > maxBytes) return fail(refusal.status, refusal.description)
    if ((caption?.length ?? 0) > CAPTION_MAX_CHARACTERS)
      return fail(400, 'Bad Request: message caption is too long')
    const chat = { id: /^-?\d+$/.test(chatId) ? Number(chatId) : chatId, type: 'private' }
    const info = fileInfo(upload)
    const extension = /\.\w+$/.exec(upload.fileName)?.[0] ?? ''
    const { file_id, file_size } = addFile(token, upload.bytes, {}, { folder, extension })
    const message = { message_id: ++messageIds, date: now(), chat }
    bot.messages.push({ ...message, text: caption ?? '', ...(caption && { caption }), file: info })
    bot.files.push({ chatId: chat.id, method, ...upload, ...(caption && { caption }) })
    const sent = { file_id, file_unique_id: `u${file_id}`, file_size }
    // The fake does not measure pictures: its photo sizes carry no width and height.
    const media =
      method === 'sendPhoto'
        ? { photo: [sent] }
        : { document: { ...sent, file_name: upload.fileName, mime_type: upload.contentType } }
    return ok({ ...message, from: bot.user, ...(caption && { caption }), ...media })
  }

  function getFile(token: string, fileId: string | undefined): Answer {
    const file = fileId === undefined ? undefined : files.get(fileId)
    if (!file || file.token !== token) return fail(400, 'Bad Request: invalid file_id')
    if (file.size > FILE_MAX_BYTES) return fail(400, 'Bad Request: file is too big')
    return ok({ file_id: fileId, file_unique_id: `u${fileId}`, file_size: file.size, file_path: file.path })
  }

  /** GET /file/bot<token>/<path>: the bytes, as Telegram serves them (no type of their own). */
  function serveFile(token: string, path: string, res: ServerResponse) {
    calls.push({ method: 'file', token, params: { path }, at: performance.timeOrigin + performance.now() })
    const file = [...files.values()].find((f) => f.token === token && f.path === path)
    if (!file) return send(res, 404, fail(404, 'Not Found'))
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': file.bytes.byteLength,
    })
    res.end(file.bytes)
  }

  function addBot({ token, id = parseInt(token), username, firstName }: NewBot) {
    const user: FakeBotUser = { id, is_bot: true, first_name: firstName ?? username, username }
    bots.set(token, { user, updates: [], nextUpdateId: 1, messages: [], files: [], conflicts: 0 })
    return user
  }

  function withIds(bot: Bot, updates: Params[]): FakeUpdate[] {
    return updates.map((update) => {
      const update_id = num(update.update_id) ?? bot.nextUpdateId
      bot.nextUpdateId = Math.max(bot.nextUpdateId, update_id + 1)
      return { ...update, update_id }
    })
  }

  /**
   * Until an update is queued, `seconds` pass, the client goes away, the server closes, or another getUpdates of
   * the same bot arrives: then this one is answered 409 (resolves to true).
   */
  function waitForUpdates(bot: Bot, seconds: number, res: ServerResponse) {
    return new Promise<boolean>((resolve) => {
      const poll = { wake: () => undefined as void, conflict: false }
      const wake = () => {
        clearTimeout(timer)
        polls.delete(wake)
        if (bot.poll === poll) bot.poll = undefined
        resolve(poll.conflict)
      }
      poll.wake = wake
      const timer = setTimeout(wake, seconds * 1000)
      polls.set(wake, res)
      bot.poll = poll
      res.once('close', wake)
      if (closing) wake()
    })
  }

  function allowed(bot: Bot, updates: FakeUpdate[]) {
    const kinds = bot.allowedUpdates
    // Telegram's default (an empty list) is every kind but chat_member, message_reaction(_count).
    const defaults = (kind: string) =>
      !['chat_member', 'message_reaction', 'message_reaction_count'].includes(kind)
    return updates.filter((update) =>
      Object.keys(update).some(
        (key) => key !== 'update_id' && (kinds?.length ? kinds.includes(key) : defaults(key)),
      ),
    )
  }

  /** allowed_updates arrives as a JSON array, or as JSON text in a form; absent keeps the previous setting. */
  function rememberAllowedUpdates(bot: Bot, value: unknown) {
    const list: unknown = typeof value === 'string' ? JSON.parse(value) : value
    if (Array.isArray(list)) bot.allowedUpdates = list.filter((kind) => typeof kind === 'string')
  }

  async function botApi(
    token: string,
    method: string,
    { params: p, uploads }: { params: Params; uploads: Uploads },
    res: ServerResponse,
  ): Promise<Answer> {
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
        rememberAllowedUpdates(bot, p.allowed_updates)
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
      case 'sendPhoto':
      case 'sendDocument':
        return sendFile(token, bot, method, p, uploads)
      case 'getFile':
        return getFile(token, str(p.file_id))
      case 'sendChatAction':
        return str(p.chat_id) && str(p.action) ? ok(true) : fail(400, 'Bad Request: chat_id is empty')
      case 'getUpdates': {
        if (webhooks.has(token)) return fail(409, WEBHOOK_CONFLICT)
        // A newer request ends the one waiting: only one client may poll a bot.
        if (bot.poll) {
          bot.poll.conflict = true
          bot.conflicts += 1
          bot.poll.wake()
        }
        rememberAllowedUpdates(bot, p.allowed_updates)
        // Asking from `offset` confirms every earlier update: Telegram forgets them.
        const offset = num(p.offset)
        if (offset !== undefined) bot.updates = bot.updates.filter((u) => u.update_id >= offset)
        const limit = Math.min(Math.max(num(p.limit) ?? 100, 1), 100)
        const timeout = num(p.timeout) ?? 0
        if (bot.updates.length === 0 && timeout > 0 && (await waitForUpdates(bot, timeout, res))) {
          return fail(409, POLL_CONFLICT)
        }
        return ok(bot.updates.slice(0, limit))
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
    const queued = allowed(bot, withIds(bot, updates))
    bot.updates.push(...queued)
    bot.poll?.wake()
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
      case 'POST /__fake/files':
        return [200, addFile(token, Buffer.from(s('base64') ?? '', 'base64'), { size: n('size') })]
    }
    return [404, { error: `No route ${route}` }]
  }

  /** The queued behaviour's answer, undefined when there is none, 'answered' when it is done with `res` itself. */
  async function misbehave(
    token: string,
    method: string,
    res: ServerResponse,
  ): Promise<Answer | 'answered' | undefined> {
    const index = behaviours.findIndex((b) => b.method === method && (b.token ?? token) === token)
    if (index < 0) return undefined
    const [{ status, description, retryAfter, raw, reset, delayMs }] = behaviours.splice(index, 1)
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs))
    if (reset) {
      res.socket?.destroy()
      return 'answered'
    }
    if (raw !== undefined) {
      res.writeHead(status, { 'content-type': 'text/html' }).end(raw)
      return 'answered'
    }
    const fallback = status === 429 ? `Too Many Requests: retry after ${retryAfter}` : STATUS_CODES[status]
    const parameters = retryAfter === undefined ? undefined : { retry_after: retryAfter }
    return fail(status, description ?? fallback ?? 'Error', parameters)
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake')
    const [{ params, uploads }, route] = [await paramsOf(req, url), `${req.method} ${url.pathname}`]
    if (url.pathname.startsWith('/__fake/')) return send(res, ...(await control(route, params)))
    const [, fileToken, filePath] = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname) ?? []
    if (req.method === 'GET' && fileToken && filePath)
      return serveFile(fileToken, decodeURIComponent(filePath), res)
    const [, token, method] = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname) ?? []
    if (!token || !method) return send(res, 404, fail(404, 'Not Found'))
    calls.push({ method, token, params, at: performance.timeOrigin + performance.now() })
    const misbehaviour = await misbehave(token, method, res)
    if (misbehaviour === 'answered') return
    const answer = misbehaviour ?? (await botApi(token, method, { params, uploads }, res))
    send(res, answer.ok ? 200 : answer.error_code, answer)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, fail(500, `Fake failure: ${String(error)}`)))
  })
  // Idle connections stay open a minute, as Telegram's do: with Node's 5 s default, a loaded machine reused a
  // connection the fake was closing, and a single send (a person's reply) failed as a network error.
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('The fake is not listening on TCP')

  return {
    apiRoot: `http://127.0.0.1:${address.port}`,
    addBot,
    addFile,
    calls,
    webhooks,
    enqueue: (method, behaviour) => void behaviours.push({ ...behaviour, method }),
    queueUpdates,
    conflicts: (token) => bots.get(token)?.conflicts ?? 0,
    pendingUpdates: (token) => bots.get(token)?.updates ?? [],
    sentMessages: (token) => bots.get(token)?.messages ?? [],
    sentFiles: (token) => bots.get(token)?.files ?? [],
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
