import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { z } from 'zod'
import { signMetaPayload } from '../../app/integrations/meta/signature.server'
import { sha256Of } from './hash'
import { fileInfo, isMultipart, parseMultipart, type UploadedFile, type UploadedFileInfo } from './multipart'

/**
 * A local stand-in for Meta's Graph API (https://graph.facebook.com/v23.0/...), spoken to over real HTTP. It
 * answers what ReplyPilot calls: debug_token, oauth/access_token (fb_exchange_token and Embedded Signup codes),
 * (a user's, page's or business token; `revokedTokens` are invalid, `tokenScopes` override a token's scopes),
 * /me/accounts, /me/permissions, a page and its subscribed_apps (POST, DELETE and GET), the Messenger Send API and User Profile API
 * (seeded `profiles`, by PSID), and the WhatsApp Cloud
 * API's register, WABA subscribed_apps (POST, DELETE and GET), phone number and WABA reads, text sends, and media:
 * `GET /{media-id}` with the business token that received it answers its `url` (on this fake, a new one each time),
 * which serves the bytes to that token only (`expireNextMediaUrls` hands out URLs already expired: 404).
 * Files sent to customers: WhatsApp's `POST /{phone-number-id}/media` upload (multipart: `messaging_product`,
 * `type`, `file`; WhatsApp's types and limits, e.g. JPEG and PNG 5 MB, documents 100 MB) answers a media id that an
 * `image` or `document` message with the same token then names; Messenger's Send API takes an `image` or `file` attachment as
 * multipart `filedata` (25 MB at most). Each is in `messages` with its `attachment` (name, type, size, sha256,
 * caption), and in `calls` with the file as { fileName, contentType, size, sha256 } instead of its bytes. Graph
 * reads JSON text in a form field (`recipient={"id":"..."}`) as the object, and so does the fake. A token may come
 * as `access_token` (query or form body) or `Authorization: Bearer`, as Graph accepts both; an unknown one gets
 * Graph's 400 with code 190. Any business token may act on any phone number or WABA (no ownership model).
 * /me/accounts pages as Graph does (`limit`, 25 by default and 100 at most; `after` cursors; `paging.next` until
 * the last page). An `appsecret_proof` that is not the HMAC-SHA256 of the token keyed by the app secret is
 * refused; with `requireAppSecretProof` on (the app's "Require App Secret" setting), so is a call with a user,
 * page or business token that carries none (developers.facebook.com/docs/graph-api/securing-requests).
 */

const pageSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: z.string().default('Business'),
  tasks: z.array(z.string()).default(['MANAGE', 'CREATE_CONTENT', 'MODERATE', 'MESSAGING']),
  accessToken: z.string(),
})
const userSchema = z.object({
  id: z.string(),
  permissions: z.array(z.string()).default([]), // granted
  declined: z.array(z.string()).default([]),
  pages: z.array(pageSchema).default([]),
})
const phoneSchema = z.object({
  verified_name: z.string(),
  display_phone_number: z.string(),
  wabaId: z.string(),
})
/**
 * A Messenger customer as the User Profile API shows them to the page their PSID belongs to
 * (developers.facebook.com/docs/messenger-platform/identity/user-profile). `readable: false`: the page may not read
 * the profile (the person has not opened the conversation, or the app lacks the access).
 */
const profileSchema = z.object({
  pageId: z.string(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  profile_pic: z.string().optional(),
  readable: z.boolean().default(true),
})
const seedSchema = z.object({
  users: z.record(z.string(), userSchema).default({}), // user token → the person
  profiles: z.record(z.string(), profileSchema).default({}), // PSID → the person as their page sees them
  whatsappCodes: z.record(z.string(), z.string()).default({}), // Embedded Signup code → business token
  businessTokens: z.array(z.string()).default([]),
  phoneNumbers: z.record(z.string(), phoneSchema).default({}),
  wabas: z.record(z.string(), z.looseObject({ name: z.string() })).default({}),
  /** Tokens the user revoked or that expired: debug_token says is_valid false, every call gets code 190. */
  revokedTokens: z.array(z.string()).default([]),
  /** A token's granted scopes as debug_token reports them, instead of its holder's permissions. */
  tokenScopes: z.record(z.string(), z.array(z.string())).default({}),
})
export type GraphFakeSeed = z.input<typeof seedSchema>
export type GraphFakeState = z.infer<typeof seedSchema> & {
  pageSubscriptions: Record<string, string[]> // page id → subscribed webhook fields
  wabaSubscriptions: string[]
  registrations: Record<string, { pin: string }> // phone number id → the PIN it was registered with
}
export type GraphCall = { method: string; path: string; query: Record<string, string>; body: unknown }
export type SentMessage = {
  id: string
  platform: 'messenger' | 'whatsapp'
  from: string // page id or phone number id
  to: string
  text?: string
  senderAction?: string
  messagingType?: string
  /** Messenger: the message tag of a MESSAGE_TAG send (HUMAN_AGENT). */
  tag?: string
  /** A photo or file: WhatsApp's `image` or `document` message, Messenger's `image` or `file` attachment. */
  attachment?: SentAttachment
}
/** The file as it was uploaded (name, declared type, size, sha256), and how the message showed it. */
export type SentAttachment = UploadedFileInfo & {
  /** WhatsApp's message type (image, document), or Messenger's attachment type (image, file, audio, video). */
  type: string
  /** WhatsApp: the uploaded media's id, which the message named. */
  mediaId?: string
  /** WhatsApp: the caption (a Messenger attachment has none). */
  caption?: string
  /** WhatsApp: the name a document is shown under, as the message gave it. */
  filename?: string
}
/** A one-shot answer: `error` fields override the Graph error made from `status`; `hang` never answers. */
const overrideSchema = z.object({
  status: z.number().int().min(100).max(599),
  error: z.record(z.string(), z.unknown()).optional(),
  body: z.unknown().optional(),
  hang: z.boolean().optional(),
  headers: z.record(z.string(), z.string()).optional(),
})
export type GraphOverride = z.infer<typeof overrideSchema>
export type GraphFake = {
  /** Base URL without the version, as META_GRAPH_ROOT expects it. */
  graphRoot: string
  /** The app's "Require App Secret" switch; may be flipped at any time. */
  switches: { requireAppSecretProof: boolean }
  state: GraphFakeState
  calls: GraphCall[]
  messages: SentMessage[]
  seed(data: GraphFakeSeed): void
  /**
   * A file a customer sent to a WhatsApp number with this business token; returns its media id. (A file the
   * business uploads with POST /{phone-number-id}/media is kept the same way.)
   */
  addMedia(token: string, bytes: Uint8Array, mimeType: string): string
  /** The next `count` media URLs are handed out already expired (404), as Meta's are after five minutes. */
  expireNextMediaUrls(count?: number): void
  /**
   * A Messenger attachment: the URL its webhook event carries (served to anyone, as Meta's CDN links are). Any other
   * attachment key is answered 404, as a link Meta no longer serves.
   */
  addAttachment(bytes: Uint8Array, mimeType: string): string
  /** The media downloads asked for (whether they were served or not). */
  mediaDownloads: string[]
  /** Answers the next request whose path (after /v23.0) contains the string, or matches the RegExp. */
  enqueue(pathPattern: string | RegExp, override: GraphOverride): void
  close(): Promise<void>
}
export type GraphFakeOptions = {
  appId: string
  appSecret: string
  port?: number
  seed?: GraphFakeSeed
  requireAppSecretProof?: boolean
}

type Answer = [status: number, body: unknown]
const fail = (status: number, code: number, message: string, extra?: Record<string, unknown>): Answer => [
  status,
  { error: { message, type: 'OAuthException', code, fbtrace_id: 'AFakeTraceId', ...extra } },
]
const INVALID_TOKEN = fail(400, 190, 'Invalid OAuth access token - Cannot parse access token')
// developers.facebook.com/docs/facebook-login/guides/access-tokens/debugging: 190 with subcode 460 (password
// changed) or 463 (expired) for a token that no longer works.
const TOKEN_EXPIRED = fail(400, 190, 'Error validating access token: The session has been invalidated.', {
  error_subcode: 460,
})
const FORBIDDEN = fail(403, 200, '(#200) Permissions error')
const INVALID_PARAMETER = fail(400, 100, '(#100) Invalid parameter')
const NO_PROFILE = fail(400, 100, '(#100) No profile available for this user.')
/** Graph's answer for an id the token cannot see (or that does not exist). */
const unsupportedGet = (id: string) =>
  fail(
    400,
    100,
    `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
    { error_subcode: 33 },
  )
// Graph's answers about appsecret_proof (a GraphMethodException, code 100).
const proofError = (message: string): Answer => [
  400,
  { error: { message, type: 'GraphMethodException', code: 100, fbtrace_id: 'AFakeTraceId' } },
]
const PROOF_REQUIRED = proofError('API calls from the server require an appsecret_proof argument')
const PROOF_INVALID = proofError('Invalid appsecret_proof provided in the API argument')
const ACCOUNTS_LIMIT = { default: 25, max: 100 }
const cursorOf = (index: number) => Buffer.from(`page:${index}`).toString('base64url')
const indexOf = (cursor: string | undefined) => {
  const match = /^page:(\d+)$/.exec(Buffer.from(cursor ?? '', 'base64url').toString('utf8'))
  return match ? Number(match[1]) : 0
}
const SUCCESS: Answer = [200, { success: true }]
const MB = 1024 * 1024
const WHATSAPP_DOCUMENT_TYPES = [
  'text/plain',
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
]
/** WhatsApp's media types and their limits (developers.facebook.com/docs/whatsapp/cloud-api/reference/media). */
const WHATSAPP_MEDIA_LIMITS: Record<string, number> = {
  'image/jpeg': 5 * MB,
  'image/png': 5 * MB,
  'image/webp': 500 * 1024, // stickers
  ...Object.fromEntries(
    ['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg', 'video/mp4', 'video/3gpp'].map(
      (type) => [type, 16 * MB],
    ),
  ),
  ...Object.fromEntries(WHATSAPP_DOCUMENT_TYPES.map((type) => [type, 100 * MB])),
}
const WHATSAPP_TYPES = Object.keys(WHATSAPP_MEDIA_LIMITS).join(', ')
const WHATSAPP_TYPE_REFUSED = (type: string) =>
  fail(
    400,
    100,
    `(#100) Param file must be a file with one of the following types: ${WHATSAPP_TYPES}. ` +
      `Received file of type '${type}'.`,
  )
const WHATSAPP_FILE_TOO_LARGE = fail(400, 100, '(#100) Invalid parameter', {
  error_user_title: 'File Too Large',
  error_user_msg: 'The file you uploaded is too large',
})
/** A message naming a media id the business never uploaded (or another business's). */
const unknownMediaId = (type: string) =>
  fail(400, 100, '(#100) Invalid parameter', {
    error_data: {
      messaging_product: 'whatsapp',
      details: `Param ${type}['id'] is not a valid whatsapp business account media attachment ID`,
    },
  })
/** The Send API's attachment types, and its upload limit (developers.facebook.com/docs/messenger-platform). */
const MESSENGER_ATTACHMENT_TYPES = new Set(['image', 'audio', 'video', 'file'])
const MESSENGER_FILE_MAX_BYTES = 25 * MB
const MESSENGER_UPLOAD_FAILURE = fail(400, 100, '(#100) Upload attachment failure.', {
  error_subcode: 2018047,
})
// Graph allows any origin: the fake SDK's FB.api calls come from the app's page.
const JSON_HEADERS = { 'content-type': 'application/json', 'access-control-allow-origin': '*' }
/** JSON text (a form field) is read as the object it holds, as Graph does. */
const objectOf = (value: unknown) => z.record(z.string(), z.unknown()).catch({}).parse(jsonText(value))
function jsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value)
  } catch {
    return value
  }
}
const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined)

/**
 * Starts the fake. With `port` it listens there, for an app in another process (e2e) whose tests drive it over
 * HTTP: GET /__fake/calls, GET /__fake/messages, GET /__fake/state, POST /__fake/seed (a JSON seed, merged into
 * the state) and POST /__fake/next ({ path, status, error?, body?, hang? }, like `enqueue`).
 */
export async function startGraphFake(options: GraphFakeOptions): Promise<GraphFake> {
  const recorded = { pageSubscriptions: {}, wabaSubscriptions: [], registrations: {} }
  const state: GraphFakeState = { ...seedSchema.parse({}), ...recorded }
  const calls: GraphCall[] = []
  const messages: SentMessage[] = []
  const overrides: Array<GraphOverride & { pattern: string | RegExp }> = []
  const switches = { requireAppSecretProof: options.requireAppSecretProof ?? false }
  let root = ''
  let counter = 0
  const media = new Map<string, { token: string; bytes: Uint8Array; mimeType: string; fileName?: string }>()
  const mediaUrls = new Map<string, { mediaId: string; live: boolean }>() // URL key → its file
  const mediaDownloads: string[] = []
  let expiredUrlsToHand = 0

  const attachments = new Map<string, { bytes: Uint8Array; mimeType: string }>()
  function addAttachment(bytes: Uint8Array, mimeType: string) {
    const key = `a${++counter}`
    attachments.set(key, { bytes, mimeType })
    return `${root}/__attachments/${key}?_nc_cat=1`
  }

  function addMedia(token: string, bytes: Uint8Array, mimeType: string, fileName?: string) {
    const id = String(900_000_000_000 + ++counter)
    media.set(id, { token, bytes, mimeType, fileName })
    return id
  }

  /** POST /{phone-number-id}/media: a file the business will send, kept for the token that uploaded it. */
  function uploadMedia(token: string, body: Record<string, unknown>, uploads: Uploads): Answer {
    if (body.messaging_product !== 'whatsapp')
      return fail(400, 100, '(#100) The parameter messaging_product is required.')
    const file = uploads.file
    if (!file) return fail(400, 100, '(#100) The parameter file is required.')
    const type = text(body.type) ?? file.contentType
    const limit = WHATSAPP_MEDIA_LIMITS[type]
    if (limit === undefined) return WHATSAPP_TYPE_REFUSED(type)
    if (file.bytes.byteLength > limit) return WHATSAPP_FILE_TOO_LARGE
    return [200, { id: addMedia(token, file.bytes, type, file.fileName) }]
  }

  /** POST /{phone-number-id}/messages: a text, or an image or document named by the id of a media uploaded. */
  function sendWhatsApp(from: string, token: string, body: Record<string, unknown>): Answer {
    const [to, type] = [text(body.to), text(body.type) ?? '']
    if (body.messaging_product !== 'whatsapp' || !to) return INVALID_PARAMETER
    const sent: SentMessage = { id: `wamid.fake-${++counter}`, platform: 'whatsapp', from, to }
    if (type === 'text') {
      const message = text(objectOf(body.text).body)
      if (!message) return INVALID_PARAMETER
      messages.push({ ...sent, text: message })
    } else if (type === 'image' || type === 'document') {
      const shown = objectOf(body[type])
      const mediaId = text(shown.id) ?? ''
      const file = media.get(mediaId)
      if (!file || file.token !== token) return unknownMediaId(type)
      const uploaded = { fileName: file.fileName ?? '', contentType: file.mimeType, bytes: file.bytes }
      const [caption, filename] = [text(shown.caption), text(shown.filename)]
      const attachment = { ...fileInfo(uploaded), type, mediaId, ...(caption && { caption }) }
      messages.push({ ...sent, attachment: { ...attachment, ...(filename && { filename }) } })
    } else return INVALID_PARAMETER
    const contacts = [{ input: to, wa_id: to }]
    return [200, { messaging_product: 'whatsapp', contacts, messages: [{ id: sent.id }] }]
  }

  /** POST /{page-id}/messages: a sender action, a text, or a file uploaded with the message as `filedata`. */
  function sendMessenger(from: string, body: Record<string, unknown>, uploads: Uploads): Answer {
    const [to, senderAction] = [text(objectOf(body.recipient).id), text(body.sender_action)]
    if (to && senderAction) {
      messages.push({ id: `action-${++counter}`, platform: 'messenger', from, to, senderAction })
      return [200, { recipient_id: to }]
    }
    const message = objectOf(body.message)
    const [content, messagingType, tag] = [text(message.text), text(body.messaging_type), text(body.tag)]
    const attachment = objectOf(message.attachment)
    const type = text(attachment.type)
    if (!to || !messagingType || (!content && !type)) return INVALID_PARAMETER
    // Send API: a MESSAGE_TAG message names its tag; HUMAN_AGENT is the one a person's late answer uses.
    if (messagingType === 'MESSAGE_TAG' && !tag) return INVALID_PARAMETER
    const sent: SentMessage = { id: `m_fake-${++counter}`, platform: 'messenger', from, to, messagingType }
    if (tag) sent.tag = tag
    if (content) {
      messages.push({ ...sent, text: content })
      return [200, { recipient_id: to, message_id: sent.id }]
    }
    const file = uploads.filedata
    if (!file || !type || !MESSENGER_ATTACHMENT_TYPES.has(type)) return INVALID_PARAMETER
    if (file.bytes.byteLength > MESSENGER_FILE_MAX_BYTES) return MESSENGER_UPLOAD_FAILURE
    messages.push({ ...sent, attachment: { ...fileInfo(file), type } })
    // An attachment saved for reuse (payload.is_reusable) gets an id of its own.
    const reusable = objectOf(attachment.payload).is_reusable === true
    const saved = reusable ? { attachment_id: String(800_000_000_000 + ++counter) } : {}
    return [200, { recipient_id: to, message_id: sent.id, ...saved }]
  }

  /** GET /{media-id}: where to download it, for the token that received it. */
  function mediaUrl(id: string, token: string | undefined): Answer | undefined {
    const file = media.get(id)
    if (!file) return undefined
    if (token !== file.token) return unsupportedGet(id)
    const key = `${id}-${++counter}`
    mediaUrls.set(key, { mediaId: id, live: expiredUrlsToHand === 0 })
    expiredUrlsToHand = Math.max(0, expiredUrlsToHand - 1)
    const url = `${root}/__media/${key}?ext=${Date.now()}`
    const sha256 = sha256Of(file.bytes)
    return [
      200,
      {
        messaging_product: 'whatsapp',
        url,
        mime_type: file.mimeType,
        sha256,
        file_size: file.bytes.byteLength,
        id,
      },
    ]
  }

  /** The download: the bytes, to the media's own token only, while the URL lives. */
  function serveMedia(key: string, authorization: string | undefined, res: ServerResponse) {
    mediaDownloads.push(key)
    const url = mediaUrls.get(key)
    const file = url && media.get(url.mediaId)
    if (!url || !file || !url.live) return send(res, fail(404, 100, 'URL expired'))
    if (authorization !== `Bearer ${file.token}`)
      return send(res, fail(401, 190, 'Invalid OAuth access token'))
    res.writeHead(200, { 'content-type': file.mimeType, 'content-length': file.bytes.byteLength })
    res.end(file.bytes)
  }

  function seed(data: GraphFakeSeed) {
    const parsed = seedSchema.parse(data)
    for (const key of ['users', 'profiles', 'whatsappCodes', 'phoneNumbers', 'wabas', 'tokenScopes'] as const)
      Object.assign(state[key], parsed[key])
    state.businessTokens.push(...parsed.businessTokens)
    state.revokedTokens.push(...parsed.revokedTokens)
  }
  const enqueue = (pattern: string | RegExp, override: GraphOverride) =>
    void overrides.push({ ...override, pattern })
  if (options.seed) seed(options.seed)

  /** Graph's routes. `param` reads the query string, then the body; `uploads` are a multipart body's files. */
  function route(
    call: GraphCall,
    param: (name: string) => string | undefined,
    token: string | undefined,
    uploads: Uploads,
  ): Answer {
    const [id = '', edge = '', ...rest] = call.path.split('/').filter(Boolean)
    const [method, body, endpoint] = [call.method, objectOf(call.body), `${call.method} ${id}/${edge}`]
    if (rest.length > 0) return fail(400, 100, 'Unknown path components')
    const isWhatsApp = body.messaging_product === 'whatsapp'
    const mediaAnswer = method === 'GET' && !edge ? mediaUrl(id, token) : undefined
    if (mediaAnswer) return mediaAnswer

    if (endpoint === 'GET oauth/access_token') {
      if (param('client_id') !== options.appId || param('client_secret') !== options.appSecret) {
        return fail(400, 1, 'Error validating client secret.')
      }
      const [short, code] = [param('fb_exchange_token') ?? '', param('code') ?? '']
      if (param('grant_type') === 'fb_exchange_token') {
        if (!state.users[short]) return INVALID_TOKEN
        const long = `${short}-long-lived-${++counter}`
        state.users[long] = state.users[short] // acts for the same person
        return [200, { access_token: long, token_type: 'bearer', expires_in: 5183944 }]
      }
      const business = state.whatsappCodes[code]
      if (!business) return fail(400, 100, 'This authorization code has been used.', { error_subcode: 36009 })
      delete state.whatsappCodes[code] // single use
      state.businessTokens.push(business)
      return [200, { access_token: business, token_type: 'bearer' }]
    }
    if (!token) return fail(400, 104, 'An access token is required to request this resource.')
    if (state.revokedTokens.includes(token)) return TOKEN_EXPIRED

    const users = Object.values(state.users)
    if (endpoint === 'GET debug_token/') {
      if (token !== `${options.appId}|${options.appSecret}`) return INVALID_TOKEN
      const input = param('input_token') ?? ''
      const ownPage = users.flatMap((u) => u.pages).find((p) => p.accessToken === input)
      const holder = state.users[input] ?? users.find((u) => u.pages.some((p) => p === ownPage))
      const business = state.businessTokens.includes(input)
      if (state.revokedTokens.includes(input) || (!holder && !business)) {
        const error = { code: 190, subcode: 460, message: 'The session has been invalidated.' }
        return [200, { data: { app_id: options.appId, is_valid: false, scopes: [], error } }]
      }
      if (business) {
        const scopes = state.tokenScopes[input] ?? [
          'whatsapp_business_management',
          'whatsapp_business_messaging',
        ]
        const data = { app_id: options.appId, type: 'SYSTEM_USER', is_valid: true, scopes, expires_at: 0 }
        return [200, { data }]
      }
      if (!holder) return [200, { data: { is_valid: false, scopes: [], error: { code: 190 } } }]
      const kind = ownPage ? { type: 'PAGE', profile_id: ownPage.id, expires_at: 0 } : { type: 'USER' }
      const scopes = state.tokenScopes[input] ?? holder.permissions
      const data = { app_id: options.appId, is_valid: true, scopes, user_id: holder.id }
      return [200, { data: { expires_at: 1_900_000_000, ...data, ...kind } }]
    }
    const me = state.users[token]
    if (endpoint === 'GET me/permissions' && me) {
      const granted = me.permissions.map((permission) => ({ permission, status: 'granted' }))
      const declined = me.declined.map((permission) => ({ permission, status: 'declined' }))
      return [200, { data: [...granted, ...declined] }]
    }
    if (endpoint === 'GET me/accounts' && me) {
      const asked = Number(param('limit') ?? ACCOUNTS_LIMIT.default)
      const limit = Math.min(
        Number.isInteger(asked) && asked > 0 ? asked : ACCOUNTS_LIMIT.default,
        ACCOUNTS_LIMIT.max,
      )
      const start = indexOf(param('after'))
      const data = me.pages
        .slice(start, start + limit)
        .map(({ accessToken, ...page }) => ({ ...page, access_token: accessToken }))
      const end = start + data.length
      const paging: Record<string, unknown> = { cursors: { before: cursorOf(start), after: cursorOf(end) } }
      if (end < me.pages.length) {
        // Like Graph's: the whole request again with the next cursor, the token in the query.
        const next = new URL(`${root}/v23.0/me/accounts`)
        for (const [name, value] of Object.entries(call.query)) next.searchParams.set(name, value)
        next.searchParams.set('limit', String(limit))
        next.searchParams.set('access_token', token)
        next.searchParams.set('after', cursorOf(end))
        paging.next = next.href
      }
      return [200, { data, paging }]
    }
    const page = users.flatMap((u) => u.pages).find((p) => p.id === id)
    const [phone, waba] = [state.phoneNumbers[id], state.wabas[id]]
    const ownToken = page?.accessToken === token
    if (page && !ownToken && !me?.pages.some((p) => p.id === page.id)) return me ? FORBIDDEN : INVALID_TOKEN
    if (page && method === 'GET' && !edge) return [200, { id, name: page.name, category: page.category }]
    if (page && !ownToken) return fail(400, 210, '(#210) A page access token is required for this request')
    if (page && edge === 'subscribed_apps' && method === 'POST') {
      const subscribed = (param('subscribed_fields') ?? '').split(',').filter(Boolean)
      if (subscribed.length === 0) return fail(400, 100, '(#100) The parameter subscribed_fields is required')
      state.pageSubscriptions[id] = subscribed
      return SUCCESS
    }
    if (page && edge === 'subscribed_apps' && method === 'GET') {
      const fields = state.pageSubscriptions[id]
      const app = { id: options.appId, name: 'ReplyPilot', category: 'Business', link: 'https://example.com' }
      return [200, { data: fields ? [{ ...app, subscribed_fields: fields }] : [] }]
    }
    if (page && edge === 'subscribed_apps' && method === 'DELETE') {
      delete state.pageSubscriptions[id]
      return SUCCESS
    }
    if (page && edge === 'messages' && method === 'POST') return sendMessenger(id, body, uploads)

    // The User Profile API: a PSID, read with the token of its page; only the fields asked for (and the id).
    const profile = state.profiles[id]
    const pageOfToken = users.flatMap((u) => u.pages).find((p) => p.accessToken === token)
    if (pageOfToken && !phone && !waba && method === 'GET' && !edge) {
      if (!profile || profile.pageId !== pageOfToken.id) return unsupportedGet(id)
      if (!profile.readable) return NO_PROFILE
      const asked = (param('fields') ?? 'name').split(',').filter(Boolean)
      const fields: Record<string, string | undefined> = {
        first_name: profile.first_name,
        last_name: profile.last_name,
        profile_pic: profile.profile_pic,
        name: [profile.first_name, profile.last_name].filter(Boolean).join(' ') || undefined,
      }
      const shown = asked.flatMap((field) => (fields[field] === undefined ? [] : [[field, fields[field]]]))
      return [200, { ...Object.fromEntries(shown), id }]
    }

    // WhatsApp: a business phone number or a WABA, with a business token.
    if ((phone || waba) && !state.businessTokens.includes(token)) return me ? FORBIDDEN : INVALID_TOKEN
    if (phone && method === 'GET' && !edge) {
      const { verified_name, display_phone_number } = phone
      return [200, { id, verified_name, display_phone_number, quality_rating: 'GREEN' }]
    }
    if (phone && method === 'POST' && edge === 'register') {
      const pin = text(body.pin) ?? ''
      if (!isWhatsApp || !/^\d{6}$/.test(pin)) return INVALID_PARAMETER
      state.registrations[id] = { pin }
      return SUCCESS
    }
    if (phone && method === 'POST' && edge === 'messages') return sendWhatsApp(id, token, body)
    if (phone && method === 'POST' && edge === 'media') return uploadMedia(token, body, uploads)
    if (waba && method === 'GET' && !edge) return [200, { id, ...waba }]
    if (waba && method === 'POST' && edge === 'subscribed_apps') {
      if (!state.wabaSubscriptions.includes(id)) state.wabaSubscriptions.push(id)
      return SUCCESS
    }
    if (waba && method === 'GET' && edge === 'subscribed_apps') {
      const app = { id: options.appId, name: 'ReplyPilot', link: 'https://example.com' }
      return [
        200,
        { data: state.wabaSubscriptions.includes(id) ? [{ whatsapp_business_api_data: app }] : [] },
      ]
    }
    if (waba && method === 'DELETE' && edge === 'subscribed_apps') {
      state.wabaSubscriptions = state.wabaSubscriptions.filter((subscribed) => subscribed !== id)
      return SUCCESS
    }
    if (!me && !page && !phone && !waba) return INVALID_TOKEN
    return fail(400, 100, `Unsupported ${method} request on '${id}'`, { error_subcode: 33 })
  }

  /** Graph's appsecret_proof rules: a proof must match; with the switch on, every non-app token needs one. */
  function checkProof(token: string, proof: string | undefined): Answer | undefined {
    if (proof === undefined) {
      const appToken = token === `${options.appId}|${options.appSecret}`
      return switches.requireAppSecretProof && !appToken ? PROOF_REQUIRED : undefined
    }
    const expected = createHmac('sha256', options.appSecret).update(token).digest('hex')
    const [a, b] = [Buffer.from(proof), Buffer.from(expected)]
    return a.length === b.length && timingSafeEqual(a, b) ? undefined : PROOF_INVALID
  }

  function send(res: ServerResponse, [status, body]: Answer, headers: Record<string, string> = {}) {
    res.writeHead(status, { ...JSON_HEADERS, ...headers })
    res.end(JSON.stringify(body))
  }

  function handle(req: IncomingMessage, raw: Buffer, res: ServerResponse) {
    const [method, url] = [req.method ?? 'GET', new URL(req.url ?? '/', 'http://fake')]
    const parsed = bodyOf(req.headers['content-type'] ?? '', raw)
    if (!parsed) return send(res, fail(400, 100, 'Malformed request body'))
    const { body, uploads } = parsed
    const control = `${method} ${url.pathname}`
    const mediaKey = /^\/__media\/([\w-]+)$/.exec(url.pathname)?.[1]
    if (method === 'GET' && mediaKey) return serveMedia(mediaKey, req.headers.authorization, res)
    const attachmentKey = /^\/__attachments\/(\w+)$/.exec(url.pathname)?.[1]
    if (method === 'GET' && attachmentKey) {
      mediaDownloads.push(url.pathname)
      const attachment = attachments.get(attachmentKey)
      // Meta's CDN answers 404 for a link it no longer serves.
      if (!attachment) return send(res, fail(404, 100, 'Not found'))
      res.writeHead(200, {
        'content-type': attachment.mimeType,
        'content-length': attachment.bytes.byteLength,
      })
      return res.end(attachment.bytes)
    }
    if (control === 'GET /__fake/calls') return send(res, [200, calls])
    if (control === 'GET /__fake/messages') return send(res, [200, messages])
    if (control === 'GET /__fake/state') return send(res, [200, state])
    const seeded = seedSchema.safeParse(body)
    const next = overrideSchema.extend({ path: z.string() }).safeParse(body)
    if (control === 'POST /__fake/seed' && seeded.success) seed(seeded.data)
    else if (control === 'POST /__fake/next' && next.success) enqueue(next.data.path, next.data)
    else if (control.startsWith('POST /__fake/'))
      return send(res, [400, { error: 'Invalid control request' }])
    if (control.startsWith('POST /__fake/')) return send(res, [200, { ok: true }])

    if (!url.pathname.startsWith('/v23.0/')) return send(res, fail(400, 2500, `Unknown path ${url.pathname}`))
    const call = { method, path: url.pathname.slice(6), query: Object.fromEntries(url.searchParams), body }
    calls.push(call)
    const index = overrides.findIndex(({ pattern: p }) =>
      typeof p === 'string' ? call.path.includes(p) : p.test(call.path),
    )
    if (index >= 0) {
      const [{ status, error, body: answer, hang, headers }] = overrides.splice(index, 1)
      if (hang) return // the socket stays open until the client gives up or close() destroys it
      const code = status === 429 ? 4 : status >= 500 ? 2 : 100
      return send(res, [status, answer ?? fail(status, code, `Fake error ${status}`, error)[1]], headers)
    }
    const param = (name: string) => call.query[name] ?? text(objectOf(body)[name])
    const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? param('access_token')
    const refused = token ? checkProof(token, param('appsecret_proof')) : undefined
    send(res, refused ?? route(call, param, token, uploads))
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => handle(req, Buffer.concat(chunks), res))
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('The fake is not listening on TCP')
  root = `http://127.0.0.1:${address.port}`

  return {
    graphRoot: root,
    switches,
    state,
    calls,
    messages,
    seed,
    enqueue,
    addMedia,
    addAttachment,
    expireNextMediaUrls(count = 1) {
      expiredUrlsToHand += count
    },
    mediaDownloads,
    close() {
      server.closeAllConnections() // hanging requests would otherwise keep close() waiting
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
    },
  }
}

type Uploads = Record<string, UploadedFile>

/**
 * A JSON, form-encoded or multipart body, undefined when it cannot be read. A multipart body's files are in
 * `uploads`, and in the body (which `calls` records) as their UploadedFileInfo.
 */
function bodyOf(contentType: string, raw: Buffer): { body: unknown; uploads: Uploads } | undefined {
  try {
    if (isMultipart(contentType)) {
      const { fields, files } = parseMultipart(raw, contentType)
      const infos = Object.fromEntries(Object.entries(files).map(([name, file]) => [name, fileInfo(file)]))
      return { body: { ...fields, ...infos }, uploads: files }
    }
    const text = raw.toString('utf8')
    if (contentType.includes('x-www-form-urlencoded'))
      return { body: Object.fromEntries(new URLSearchParams(text)), uploads: {} }
    return { body: text ? JSON.parse(text) : {}, uploads: {} }
  } catch {
    return undefined
  }
}

const escapeUnicode = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`

/** JSON as Meta sends it, non-ASCII characters escaped as lower-case \uXXXX. The signature covers those bytes, so
 *  a receiver that hashes a re-serialized body instead of the raw one fails here as it would in production. */
export const metaJson = (payload: unknown) =>
  JSON.stringify(payload).replace(/[\u0080-\uffff]/g, escapeUnicode)

/** POSTs a webhook delivery the way Meta does: raw JSON body and `X-Hub-Signature-256` over exactly those bytes. */
export function deliverSignedWebhook(url: string, payload: unknown, appSecret: string): Promise<Response> {
  const raw = typeof payload === 'string' ? payload : metaJson(payload)
  const signature = signMetaPayload(raw, appSecret)
  const headers = { 'content-type': 'application/json', 'x-hub-signature-256': signature }
  return fetch(url, { method: 'POST', headers, body: raw })
}
