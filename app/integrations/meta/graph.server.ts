import { createHmac } from 'node:crypto'
import { z } from 'zod'
import {
  PLATFORM_REQUEST_TIMEOUT_MS,
  PlatformError,
  platformErrorFromStatus,
  type Platform,
  type PlatformErrorCode,
  type PlatformErrorOptions,
} from '~/integrations/platform-errors'

export { PlatformError } from '~/integrations/platform-errors'

export type GraphConfig = {
  /** `https://graph.facebook.com` in production (META_GRAPH_ROOT), a local fake in tests. */
  graphRoot: string
  /** `v23.0` (META_GRAPH_VERSION). */
  version: string
  appId: string
  appSecret: string
  timeoutMs?: number
}

import { FACEBOOK_PERMISSIONS, MESSENGER_WEBHOOK_FIELDS } from '~/lib/facebook'

export { FACEBOOK_PERMISSIONS, MESSENGER_WEBHOOK_FIELDS }

export type FacebookTokenInfo = {
  isValid: boolean
  /** USER, PAGE, APP... as Graph names it. */
  type?: string
  appId?: string
  userId?: string
  /** For a page token, the page it acts as. */
  pageId?: string
  scopes: string[]
  /** Null when the token does not expire (long-lived page tokens) or Graph does not say. */
  expiresAt: Date | null
}

export type FacebookPage = {
  id: string
  name: string
  category: string
  tasks: string[]
  accessToken: string
}
export type WhatsAppPhoneDetails = { id: string; verified_name: string; display_phone_number: string }
export type WhatsAppBusinessAccount = {
  id: string
  name: string
  currency?: string
  timezone_id?: string
  message_template_namespace?: string
}
export type ExchangedToken = { accessToken: string; expiresIn?: number }

export type GraphClient = {
  /** Facebook: checks any token with the app token. An invalid token answers `isValid: false`, it does not throw. */
  debugToken(inputToken: string): Promise<FacebookTokenInfo>
  exchangeForLongLivedToken(userToken: string): Promise<ExchangedToken>
  /** The pages the person can act on, with their page tokens (long-lived when the user token is). */
  getPages(userToken: string): Promise<FacebookPage[]>
  getPage(pageToken: string, pageId: string): Promise<{ id: string; name: string; category?: string }>
  subscribePageToApp(pageToken: string, pageId: string, fields?: readonly string[]): Promise<void>
  unsubscribePageFromApp(pageToken: string, pageId: string): Promise<void>
  sendMessengerText(
    pageToken: string,
    pageId: string,
    message: { recipientId: string; text: string },
  ): Promise<{ messageId: string; recipientId: string }>
  sendMessengerTyping(pageToken: string, pageId: string, recipientId: string): Promise<void>
  getGrantedPermissions(userToken: string): Promise<{ valid: boolean; missing: string[]; granted: string[] }>

  /** WhatsApp: the Embedded Signup code (short-lived, single use: exchange it at once) for a business token. */
  exchangeCode(code: string): Promise<ExchangedToken>
  registerPhoneNumber(token: string, phoneNumberId: string, pin: string): Promise<void>
  subscribeAppToWaba(token: string, wabaId: string): Promise<void>
  /** Stops the WABA's webhooks to this app (every number of that WABA). */
  unsubscribeAppFromWaba(token: string, wabaId: string): Promise<void>
  getPhoneNumber(token: string, phoneNumberId: string): Promise<WhatsAppPhoneDetails>
  getWaba(token: string, wabaId: string): Promise<WhatsAppBusinessAccount>
  sendWhatsAppText(
    token: string,
    phoneNumberId: string,
    message: { to: string; text: string },
  ): Promise<{ messageId: string }>
}

/**
 * A failed Graph call: the spec's code (a PlatformError, so withPlatformRetries and the routes treat it like any
 * platform error) plus what Graph said, for logs and for callers that react to a given Graph code (WhatsApp's
 * 131047, outside the 24-hour window...). Neither the message nor any field holds a token, code or secret.
 */
export class GraphApiError extends PlatformError {
  readonly graphCode?: number
  readonly graphSubcode?: number
  readonly fbtraceId?: string

  constructor(
    platform: Platform,
    code: PlatformErrorCode,
    options: PlatformErrorOptions = {},
    graph: { code?: number; subcode?: number; fbtraceId?: string } = {},
  ) {
    super(platform, code, options)
    this.name = 'GraphApiError'
    this.graphCode = graph.code
    this.graphSubcode = graph.subcode
    this.fbtraceId = graph.fbtraceId
  }
}

// Graph's throttling codes: application (4), user (17), page (32) and custom (613) rate limits; WhatsApp's
// business-use-case limit (80007), throughput (130429) and pair rate (131056). Graph answers them with 400 or
// 403 as often as with 429, so the code decides, not the status.
const RATE_LIMIT_CODES = new Set([4, 17, 32, 613, 80007, 130429, 131056])
// 190: invalid or expired OAuth token; 102: expired session.
const AUTH_CODES = new Set([102, 190])

const graphErrorBody = z.object({
  error: z.looseObject({
    message: z.string().optional(),
    code: z.number().optional(),
    error_subcode: z.number().optional(),
    fbtrace_id: z.string().optional(),
  }),
})

// Graph ids are digits (pages, phone numbers, WABAs) or `me`. They go into the URL path: anything that could
// address another path (a slash, dots, a query) is refused before any request.
const GRAPH_ID = /^[A-Za-z0-9_-]+$/
const PIN = /^\d{6}$/

const successSchema = z.object({ success: z.literal(true) })
const tokenSchema = z.object({ access_token: z.string().min(1), expires_in: z.number().optional() })
const debugTokenSchema = z.object({
  data: z.object({
    is_valid: z.boolean(),
    type: z.string().optional(),
    app_id: z.string().optional(),
    user_id: z.string().optional(),
    profile_id: z.string().optional(),
    scopes: z.array(z.string()).default([]),
    expires_at: z.number().optional(),
  }),
})
const accountsSchema = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      category: z.string().default(''),
      tasks: z.array(z.string()).default([]),
      access_token: z.string(),
    }),
  ),
  paging: z
    .object({ cursors: z.object({ after: z.string() }).optional(), next: z.string().optional() })
    .optional(),
})
const pageSchema = z.object({ id: z.string(), name: z.string(), category: z.string().optional() })
const permissionsSchema = z.object({
  data: z.array(z.object({ permission: z.string(), status: z.string() })),
})
const messengerSendSchema = z.object({ recipient_id: z.string(), message_id: z.string() })
const phoneSchema = z.object({ id: z.string(), verified_name: z.string(), display_phone_number: z.string() })
const wabaSchema = z.object({
  id: z.string(),
  name: z.string(),
  currency: z.string().optional(),
  timezone_id: z.string().optional(),
  message_template_namespace: z.string().optional(),
})
const whatsAppSendSchema = z.object({ messages: z.array(z.object({ id: z.string() })).min(1) })

const WABA_FIELDS = 'id,name,currency,timezone_id,message_template_namespace'
// /me/accounts pages at 25 by default; 100 a request keeps a person with many pages to a few requests. Its
// `paging.next` is followed to the end; the cap only stops a Graph that would hand out `next` links forever.
const PAGES_PER_REQUEST = '100'
const MAX_PAGE_REQUESTS = 1000

// Tokens whose appsecret_proof was computed, kept so that a page's sends do not hash its token every time. The
// cache is emptied when full: a proof is cheap to compute again.
const PROOFS_CACHED = 1024

type GraphRequest = {
  platform: Platform
  method?: 'GET' | 'POST' | 'DELETE'
  /** Path segments after the version, each an id or an edge name; ids are checked. */
  path: string[]
  query?: Record<string, string>
  body?: unknown
  /** Sent as `Authorization: Bearer`, never in the URL. */
  token?: string
  /**
   * The app access token (`app_id|app_secret`, debug_token): no appsecret_proof. Meta asks for the proof to show
   * that a user, page or business token is used by the app's server; the app token holds the secret itself.
   */
  appToken?: boolean
  /** A `paging.next` link given by Graph, requested instead of `path` (same origin and version only). */
  url?: URL
  /** Other values that must not appear in an error (codes, PINs, tokens passed as parameters). */
  secrets?: string[]
}

function redact(text: string, secrets: string[]): string {
  return secrets
    .filter((secret) => secret.length > 0)
    .reduce((out, secret) => out.replaceAll(secret, '[redacted]'), text)
}

function retryAfterMs(headers: Headers): number | undefined {
  const seconds = Number.parseFloat(headers.get('retry-after') ?? '')
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined
}

function toGraphError(
  platform: Platform,
  response: Response,
  body: unknown,
  secrets: string[],
): GraphApiError {
  const parsed = graphErrorBody.safeParse(body)
  const graph = parsed.success ? parsed.data.error : undefined
  const details = { code: graph?.code, subcode: graph?.error_subcode, fbtraceId: graph?.fbtrace_id }
  const status = response.status
  const retryAfter = retryAfterMs(response.headers)
  if (graph?.code !== undefined && AUTH_CODES.has(graph.code)) {
    return new GraphApiError(platform, 'AUTH_TOKEN_INVALID', { status }, details)
  }
  if (status === 429 || (graph?.code !== undefined && RATE_LIMIT_CODES.has(graph.code))) {
    return new GraphApiError(platform, 'RATE_LIMITED', { status, retryAfterMs: retryAfter }, details)
  }
  const message = graph?.message ? redact(graph.message, secrets) : undefined
  const base = platformErrorFromStatus(platform, status, message, retryAfter)
  const options = { message: base.message, status, retryable: base.retryable, retryAfterMs: retryAfter }
  return new GraphApiError(platform, base.code, options, details)
}

/**
 * Meta's Graph API over plain typed fetch: Facebook pages and Messenger, WhatsApp Cloud API onboarding and sends.
 * One client for the app; every user, page or business token comes per call. Every answer is checked with zod.
 * Every failure is a GraphApiError (a PlatformError) with the spec's code; the client does not retry: callers
 * wrap sends in withPlatformRetries, so that a non-idempotent send is retried only where the caller decides.
 */
export function createGraphClient(config: GraphConfig): GraphClient {
  const base = `${config.graphRoot.replace(/\/+$/, '')}/${config.version}`
  const timeoutMs = config.timeoutMs ?? PLATFORM_REQUEST_TIMEOUT_MS
  const appToken = `${config.appId}|${config.appSecret}`
  const proofs = new Map<string, string>()

  /**
   * appsecret_proof: HMAC-SHA256 of the access token keyed by the app secret, in hex
   * (developers.facebook.com/docs/graph-api/securing-requests). With "Require App Secret" switched on in the
   * app's settings, Graph refuses every call with a user, page or business token that does not carry it.
   */
  function proofOf(token: string): string {
    let proof = proofs.get(token)
    if (proof === undefined) {
      if (proofs.size >= PROOFS_CACHED) proofs.clear()
      proof = createHmac('sha256', config.appSecret).update(token).digest('hex')
      proofs.set(token, proof)
    }
    return proof
  }

  /** A `paging.next` link, if it points at this Graph root and version; never another host. */
  function nextLink(link: string | undefined): URL | undefined {
    if (!link) return undefined
    let url: URL
    try {
      url = new URL(link)
    } catch {
      return undefined
    }
    const root = new URL(base)
    if (url.origin !== root.origin || !url.pathname.startsWith(`${root.pathname}/`)) return undefined
    // The token goes in the Authorization header, as on every call, and the proof is ours to add.
    url.searchParams.delete('access_token')
    url.searchParams.delete('appsecret_proof')
    return url
  }

  async function request<T>(schema: z.ZodType<T>, call: GraphRequest): Promise<T> {
    const { platform, method = 'GET' } = call
    const secrets = [config.appSecret, call.token ?? '', ...(call.secrets ?? [])]
    const badId = call.path.find((segment) => !GRAPH_ID.test(segment))
    if (badId !== undefined) {
      throw new GraphApiError(platform, 'VALIDATION_ERROR', { message: 'Invalid Graph API object id' })
    }
    const url = call.url ? new URL(call.url) : new URL(`${base}/${call.path.join('/')}`)
    for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value)
    const headers: Record<string, string> = { accept: 'application/json' }
    if (call.token) headers.authorization = `Bearer ${call.token}`
    if (call.token && !call.appToken) url.searchParams.set('appsecret_proof', proofOf(call.token))
    if (call.body !== undefined) headers['content-type'] = 'application/json'

    const timeout = AbortSignal.timeout(timeoutMs)
    let response: Response
    let text: string
    try {
      const body = call.body === undefined ? undefined : JSON.stringify(call.body)
      response = await fetch(url, { method, headers, body, signal: timeout })
      text = await response.text()
    } catch {
      // Nothing of the fetch error is kept: undici's causes can name the request.
      throw new GraphApiError(platform, timeout.aborted ? 'TIMEOUT_ERROR' : 'NETWORK_ERROR')
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    if (!response.ok) throw toGraphError(platform, response, json, secrets)
    const parsed = schema.safeParse(json)
    if (!parsed.success) {
      const endpoint = `${method} /${call.path.join('/')}`
      const message = `The Graph API sent an answer that could not be read (${endpoint}, HTTP ${response.status})`
      throw new GraphApiError(platform, 'UNKNOWN_ERROR', { message, status: response.status })
    }
    return parsed.data
  }

  const facebook = (call: Omit<GraphRequest, 'platform'>): GraphRequest => ({ platform: 'facebook', ...call })
  const whatsapp = (call: Omit<GraphRequest, 'platform'>): GraphRequest => ({ platform: 'whatsapp', ...call })
  const oauthQuery = { client_id: config.appId, client_secret: config.appSecret }

  async function getPages(userToken: string): Promise<FacebookPage[]> {
    const pages: FacebookPage[] = []
    const seen = new Set<string>()
    let next: URL | undefined
    for (let round = 0; round < MAX_PAGE_REQUESTS; round++) {
      const first = { fields: 'id,name,category,tasks,access_token', limit: PAGES_PER_REQUEST }
      const answer = await request(
        accountsSchema,
        next
          ? facebook({ path: ['me', 'accounts'], url: next, token: userToken })
          : facebook({ path: ['me', 'accounts'], query: first, token: userToken }),
      )
      for (const page of answer.data) {
        pages.push({
          id: page.id,
          name: page.name,
          category: page.category,
          tasks: page.tasks,
          accessToken: page.access_token,
        })
      }
      // Graph's own link to the next page (with its cursor and our fields and limit); none on the last page.
      next = nextLink(answer.paging?.next)
      if (!next || seen.has(next.href)) break
      seen.add(next.href)
    }
    return pages
  }

  return {
    async debugToken(inputToken) {
      const call = facebook({
        path: ['debug_token'],
        query: { input_token: inputToken },
        token: appToken,
        appToken: true,
        secrets: [inputToken],
      })
      const { data } = await request(debugTokenSchema, call).catch((error: unknown) => {
        // Graph answers an invalid *input* token with is_valid: false; a refused call points at the app token.
        if (error instanceof PlatformError && error.code === 'AUTH_TOKEN_INVALID') {
          const message = 'The Graph API refused the token check: verify META_APP_ID and META_APP_SECRET'
          throw new GraphApiError('facebook', 'AUTH_TOKEN_INVALID', { message, status: error.status })
        }
        throw error
      })
      return {
        isValid: data.is_valid,
        type: data.type,
        appId: data.app_id,
        userId: data.user_id,
        pageId: data.profile_id,
        scopes: data.scopes,
        expiresAt: data.expires_at ? new Date(data.expires_at * 1000) : null,
      }
    },

    async exchangeForLongLivedToken(userToken) {
      const query = { grant_type: 'fb_exchange_token', ...oauthQuery, fb_exchange_token: userToken }
      const answer = await request(
        tokenSchema,
        facebook({ path: ['oauth', 'access_token'], query, secrets: [userToken] }),
      )
      return { accessToken: answer.access_token, expiresIn: answer.expires_in }
    },

    getPages,

    async getPage(pageToken, pageId) {
      const query = { fields: 'id,name,category' }
      return request(pageSchema, facebook({ path: [pageId], query, token: pageToken }))
    },

    async subscribePageToApp(pageToken, pageId, fields = MESSENGER_WEBHOOK_FIELDS) {
      const query = { subscribed_fields: fields.join(',') }
      await request(
        successSchema,
        facebook({ method: 'POST', path: [pageId, 'subscribed_apps'], query, token: pageToken }),
      )
    },

    async unsubscribePageFromApp(pageToken, pageId) {
      await request(
        successSchema,
        facebook({ method: 'DELETE', path: [pageId, 'subscribed_apps'], token: pageToken }),
      )
    },

    async sendMessengerText(pageToken, pageId, { recipientId, text }) {
      // RESPONSE: a reply inside the 24-hour window opened by the person's message.
      const body = { recipient: { id: recipientId }, messaging_type: 'RESPONSE', message: { text } }
      const call = facebook({ method: 'POST', path: [pageId, 'messages'], body, token: pageToken })
      const answer = await request(messengerSendSchema, call)
      return { messageId: answer.message_id, recipientId: answer.recipient_id }
    },

    async sendMessengerTyping(pageToken, pageId, recipientId) {
      const body = { recipient: { id: recipientId }, sender_action: 'typing_on' }
      const schema = z.object({ recipient_id: z.string() })
      await request(schema, facebook({ method: 'POST', path: [pageId, 'messages'], body, token: pageToken }))
    },

    async getGrantedPermissions(userToken) {
      const answer = await request(
        permissionsSchema,
        facebook({ path: ['me', 'permissions'], token: userToken }),
      )
      const granted = answer.data
        .filter((entry) => entry.status === 'granted')
        .map((entry) => entry.permission)
      const missing = FACEBOOK_PERMISSIONS.filter((permission) => !granted.includes(permission))
      return { valid: missing.length === 0, missing, granted }
    },

    async exchangeCode(code) {
      const query = { ...oauthQuery, code }
      const answer = await request(
        tokenSchema,
        whatsapp({ path: ['oauth', 'access_token'], query, secrets: [code] }),
      )
      return { accessToken: answer.access_token, expiresIn: answer.expires_in }
    },

    async registerPhoneNumber(token, phoneNumberId, pin) {
      if (!PIN.test(pin)) {
        throw new GraphApiError('whatsapp', 'VALIDATION_ERROR', {
          message: 'The two-step verification PIN must be 6 digits',
        })
      }
      const body = { messaging_product: 'whatsapp', pin }
      const call = whatsapp({
        method: 'POST',
        path: [phoneNumberId, 'register'],
        body,
        token,
        secrets: [pin],
      })
      await request(successSchema, call)
    },

    async subscribeAppToWaba(token, wabaId) {
      await request(successSchema, whatsapp({ method: 'POST', path: [wabaId, 'subscribed_apps'], token }))
    },

    async unsubscribeAppFromWaba(token, wabaId) {
      await request(successSchema, whatsapp({ method: 'DELETE', path: [wabaId, 'subscribed_apps'], token }))
    },

    async getPhoneNumber(token, phoneNumberId) {
      const query = { fields: 'id,verified_name,display_phone_number' }
      return request(phoneSchema, whatsapp({ path: [phoneNumberId], query, token }))
    },

    async getWaba(token, wabaId) {
      return request(wabaSchema, whatsapp({ path: [wabaId], query: { fields: WABA_FIELDS }, token }))
    },

    async sendWhatsAppText(token, phoneNumberId, { to, text }) {
      const body = {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to,
        type: 'text',
        text: { body: text },
      }
      const answer = await request(
        whatsAppSendSchema,
        whatsapp({ method: 'POST', path: [phoneNumberId, 'messages'], body, token }),
      )
      return { messageId: answer.messages[0].id }
    },
  }
}
