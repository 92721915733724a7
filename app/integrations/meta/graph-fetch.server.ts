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

export type GraphConfig = {
  /** `https://graph.facebook.com` in production (META_GRAPH_ROOT), a local fake in tests. */
  graphRoot: string
  /** `v23.0` (META_GRAPH_VERSION). */
  version: string
  appId: string
  appSecret: string
  timeoutMs?: number
}

export type ExchangedToken = { accessToken: string; expiresIn?: number }

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

export const successSchema = z.object({ success: z.literal(true) })
export const tokenSchema = z.object({ access_token: z.string().min(1), expires_in: z.number().optional() })

// Tokens whose appsecret_proof was computed, kept so that a page's sends do not hash its token every time. The
// cache is emptied when full: a proof is cheap to compute again.
const PROOFS_CACHED = 1024

export type GraphRequest = {
  platform: Platform
  method?: 'GET' | 'POST' | 'DELETE'
  /** Path segments after the version, each an id or an edge name; ids are checked. */
  path: string[]
  query?: Record<string, string>
  /**
   * Sent as JSON; a FormData (an upload) is sent as it is, multipart/form-data with the boundary fetch chooses.
   * Graph reads JSON text in a form field as the object (`recipient={"id":"..."}`).
   */
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
  /** This call's own limit, shorter than the client's, for a call that something else waits behind. */
  timeoutMs?: number
  /**
   * Time added to the limit (the client's, or `timeoutMs`) for a call that carries a file: an upload of many
   * megabytes may take longer than a call, and `timeoutMs` can only shorten the client's limit.
   */
  extraMs?: number
}

/** A request builder for one product's calls: `graphCall('whatsapp')({ path, token })`. */
export const graphCall =
  (platform: Platform) =>
  (call: Omit<GraphRequest, 'platform'>): GraphRequest => ({ platform, ...call })

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

/** The one way the product clients (login, Messenger, WhatsApp) call Graph. */
export type GraphFetch = {
  request<T>(schema: z.ZodType<T>, call: GraphRequest): Promise<T>
  /** A `paging.next` link, if it points at this Graph root and version; never another host. */
  nextLink(link: string | undefined): URL | undefined
  /** `app_id|app_secret`, for debug_token. */
  appToken: string
  /** The app's id and secret as OAuth's client_id and client_secret (token exchanges). */
  oauthQuery: { client_id: string; client_secret: string }
}

/**
 * Meta's Graph API over plain typed fetch. One core for the app; every user, page or business token comes per
 * call. Every answer is checked with zod. Every failure is a GraphApiError (a PlatformError) with the spec's code;
 * nothing is retried here: callers wrap sends in withPlatformRetries, so that a non-idempotent send is retried
 * only where the caller decides.
 */
export function createGraphFetch(config: GraphConfig): GraphFetch {
  const base = `${config.graphRoot.replace(/\/+$/, '')}/${config.version}`
  const timeoutMs = config.timeoutMs ?? PLATFORM_REQUEST_TIMEOUT_MS
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
    const form = call.body instanceof FormData ? call.body : undefined
    if (call.body !== undefined && !form) headers['content-type'] = 'application/json'

    const limitMs = Math.min(call.timeoutMs ?? timeoutMs, timeoutMs) + (call.extraMs ?? 0)
    const timeout = AbortSignal.timeout(limitMs)
    let response: Response
    let text: string
    try {
      const body = form ?? (call.body === undefined ? undefined : JSON.stringify(call.body))
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

  return {
    request,
    nextLink,
    appToken: `${config.appId}|${config.appSecret}`,
    oauthQuery: { client_id: config.appId, client_secret: config.appSecret },
  }
}
