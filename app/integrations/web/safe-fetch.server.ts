import { promises as dns, type LookupAddress } from 'node:dns'
import http, { type IncomingMessage } from 'node:http'
import https from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import type { Readable } from 'node:stream'
import zlib from 'node:zlib'
import { isBlockedAddress, isLocalHostName } from '~/integrations/web/address-policy'

/**
 * Fetches a public web page for the knowledge base without letting a URL reach inside our network (SSRF).
 *
 * - Only http and https, no credentials in the URL. Any port is allowed: the address decides, not the port (a
 *   public server on :8080 is as public as on :443, and a private one is refused on any port).
 * - The host name is resolved once (all addresses); if ANY address is not public (see address-policy.ts) or the
 *   name is localhost, the fetch is refused. The connection then goes to the address that was checked: the
 *   request's `lookup` returns it, so a DNS answer that changes between check and connect (rebinding) cannot
 *   redirect the connection. Host header, TLS SNI and certificate checks still use the name.
 * - Redirects are followed by hand (at most `maxRedirects`, 5 by default), and every hop is checked the same way.
 * - `timeoutMs` covers the whole fetch, redirects and body included. The body is streamed (decompressed if the
 *   server compressed it) and cut at `maxBytes` decoded bytes: `truncated: true`, nothing more is read.
 * - Only HTML, XHTML, plain text and Markdown are accepted; the charset comes from the header, a BOM or a
 *   `<meta>` tag, else UTF-8, and windows-1252 (latin1) when the bytes are not valid UTF-8.
 *
 * `allowPrivateHosts` exists for tests, whose fake sites listen on 127.0.0.1: `true` allows every address, a list
 * of host names allows only those names (so a test can let one name through and see the next hop refused). It is
 * refused outright when NODE_ENV is production. No socket is kept alive between fetches (`agent: false`).
 */

export type SafeFetchOptions = {
  maxBytes: number
  timeoutMs: number
  maxRedirects?: number
  /** Tests only; throws when NODE_ENV is production. A list allows just those host names. */
  allowPrivateHosts?: boolean | readonly string[]
  userAgent?: string
  lookup?: (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>
}

export type FetchedPage = {
  /** The final URL, after redirects. */
  url: string
  status: number
  contentType: string
  body: string
  truncated: boolean
}

export type WebFetchErrorCode =
  | 'blocked_address'
  | 'bad_url'
  | 'timeout'
  | 'too_many_redirects'
  | 'http_error'
  | 'not_html'
  | 'network'

/** `message` is for the user. `status` is the HTTP status of an `http_error`. */
export class WebFetchError extends Error {
  constructor(
    readonly code: WebFetchErrorCode,
    message: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(message, { cause: options?.cause })
    this.name = 'WebFetchError'
    this.status = options?.status
  }
  readonly status: number | undefined
}

export const DEFAULT_MAX_REDIRECTS = 5
export const DEFAULT_USER_AGENT = 'ReplyPilot-KnowledgeBot/1.0'
const MAX_URL_LENGTH = 2048
const ACCEPTED_TYPES = new Set(['text/html', 'application/xhtml+xml', 'text/plain', 'text/markdown'])
const REDIRECTS = new Set([301, 302, 303, 307, 308])

const MESSAGES = {
  bad_url: 'This is not a web page address: it must start with http:// or https://.',
  blocked_address: 'This address points to a private or local network, which we do not fetch.',
  timeout: 'The page took too long to answer.',
  too_many_redirects: 'The page redirected too many times.',
  not_found_name: "The site's name could not be found.",
  network: 'The site could not be reached.',
}

export async function fetchPublicPage(url: string, options: SafeFetchOptions): Promise<FetchedPage> {
  if (options.allowPrivateHosts && process.env.NODE_ENV === 'production') {
    throw new Error('allowPrivateHosts is for tests only and is refused in production.')
  }
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), options.timeoutMs)
  try {
    return await fetchFollowingRedirects(url, options, controller.signal)
  } catch (error) {
    if (controller.signal.aborted && !(error instanceof WebFetchError && error.code !== 'network')) {
      throw new WebFetchError('timeout', MESSAGES.timeout, { cause: error })
    }
    throw error
  } finally {
    clearTimeout(timer)
  }
}

async function fetchFollowingRedirects(start: string, options: SafeFetchOptions, signal: AbortSignal) {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS
  let url = parseUrl(start)
  for (let hop = 0; ; hop++) {
    const address = await vetHost(url, options, signal)
    const response = await request(url, address, options, signal)
    const location = response.headers.location
    if (REDIRECTS.has(response.statusCode ?? 0) && location) {
      response.destroy()
      if (hop >= maxRedirects) throw new WebFetchError('too_many_redirects', MESSAGES.too_many_redirects)
      url = parseUrl(location, url)
      continue
    }
    return readPage(url, response, options)
  }
}

function parseUrl(text: string, base?: URL): URL {
  let url: URL
  try {
    url = new URL(text.trim(), base)
  } catch (error) {
    throw new WebFetchError('bad_url', MESSAGES.bad_url, { cause: error })
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw new WebFetchError('bad_url', MESSAGES.bad_url)
  }
  if (url.username || url.password || url.href.length > MAX_URL_LENGTH) {
    throw new WebFetchError('bad_url', MESSAGES.bad_url)
  }
  url.hash = ''
  return url
}

type Vetted = { address: string; family: 4 | 6 }

/** The address to connect to, after every address of the host was found public (or the test allowance says so). */
async function vetHost(url: URL, options: SafeFetchOptions, signal: AbortSignal): Promise<Vetted> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '')
  const allowed =
    options.allowPrivateHosts === true ||
    (Array.isArray(options.allowPrivateHosts) && options.allowPrivateHosts.includes(hostname))
  const literal = isIP(hostname)
  if (!allowed && isLocalHostName(hostname)) {
    throw new WebFetchError('blocked_address', MESSAGES.blocked_address)
  }
  let addresses: { address: string; family: number }[]
  if (literal) addresses = [{ address: hostname, family: literal }]
  else {
    try {
      const lookup = options.lookup ?? ((name: string) => dns.lookup(name, { all: true, verbatim: true }))
      addresses = await abortable(lookup(hostname), signal)
    } catch (error) {
      if (signal.aborted) throw error
      throw new WebFetchError('network', MESSAGES.not_found_name, { cause: error })
    }
  }
  if (addresses.length === 0) throw new WebFetchError('network', MESSAGES.not_found_name)
  if (!allowed && addresses.some((entry) => isBlockedAddress(entry.address))) {
    throw new WebFetchError('blocked_address', MESSAGES.blocked_address)
  }
  const [first] = addresses
  return { address: first.address, family: first.family === 6 ? 6 : 4 }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** A lookup that answers only the vetted address: the socket connects where the check looked. */
function pinnedLookup(vetted: Vetted): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all)
      callback(null, [{ address: vetted.address, family: vetted.family } satisfies LookupAddress])
    else callback(null, vetted.address, vetted.family)
  }
}

function request(url: URL, vetted: Vetted, options: SafeFetchOptions, signal: AbortSignal) {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http
    const req = client.request(url, {
      method: 'GET',
      agent: false,
      lookup: pinnedLookup(vetted),
      signal,
      headers: {
        'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
        accept: 'text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.8,*/*;q=0.1',
        'accept-encoding': 'gzip, deflate, br',
      },
    })
    req.on('response', resolve)
    req.on('error', (error) => reject(signal.aborted ? error : networkError(error)))
    req.end()
  })
}

function networkError(error: unknown) {
  return new WebFetchError('network', MESSAGES.network, { cause: error })
}

function mediaType(header: string | undefined) {
  return (header ?? '').split(';')[0].trim().toLowerCase()
}

async function readPage(
  url: URL,
  response: IncomingMessage,
  options: SafeFetchOptions,
): Promise<FetchedPage> {
  const status = response.statusCode ?? 0
  if (status < 200 || status > 299) {
    response.destroy()
    const reason = response.statusMessage || http.STATUS_CODES[status] || ''
    throw new WebFetchError(
      'http_error',
      `The page answered with an error: ${status} ${reason}`.trim() + '.',
      {
        status,
      },
    )
  }
  const header = response.headers['content-type']
  const type = mediaType(header)
  if (type && !ACCEPTED_TYPES.has(type)) {
    response.destroy()
    throw new WebFetchError('not_html', `This address is not a web page (it is ${type}).`)
  }
  const { bytes, truncated } = await readBody(response, options.maxBytes)
  let contentType = type
  if (!contentType) {
    // No Content-Type: accept it only when it starts like HTML.
    const start = Buffer.from(bytes.subarray(0, 512)).toString('latin1').trimStart()
    if (!start.startsWith('<')) throw new WebFetchError('not_html', 'This address is not a web page.')
    contentType = 'text/html'
  }
  return { url: url.href, status, contentType, body: decodeBody(bytes, header, contentType), truncated }
}

function decoderFor(response: IncomingMessage): Readable {
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase()
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(zlib.createGunzip())
  if (encoding === 'deflate') return response.pipe(zlib.createInflate())
  if (encoding === 'br') return response.pipe(zlib.createBrotliDecompress())
  if (encoding === '' || encoding === 'identity') return response
  response.destroy()
  throw new WebFetchError('network', MESSAGES.network)
}

/** Reads at most `maxBytes` decoded bytes; stops (and closes the connection) as soon as there is more. */
async function readBody(response: IncomingMessage, maxBytes: number) {
  const stream = decoderFor(response)
  const chunks: Buffer[] = []
  let length = 0
  let truncated = false
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk))
      if (length + buffer.length > maxBytes) {
        chunks.push(buffer.subarray(0, maxBytes - length))
        length = maxBytes
        truncated = true
        break
      }
      chunks.push(buffer)
      length += buffer.length
    }
  } catch (error) {
    // An abort (the time limit) surfaces here as an error too: fetchPublicPage turns it into `timeout`.
    throw error instanceof WebFetchError ? error : networkError(error)
  } finally {
    if (stream !== response) stream.destroy()
    response.destroy()
  }
  return { bytes: Buffer.concat(chunks, length), truncated }
}

function charsetOf(contentType: string | undefined) {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')
  return match?.[1]
}

function metaCharset(bytes: Buffer) {
  const head = bytes.subarray(0, 4096).toString('latin1')
  const match =
    /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head) ??
    /<meta[^>]+content\s*=\s*["'][^"']*charset=([\w.:-]+)/i.exec(head)
  return match?.[1]
}

function decoder(label: string | undefined, fatal = false) {
  if (!label) return undefined
  try {
    return new TextDecoder(label, { fatal })
  } catch {
    return undefined
  }
}

/** Header charset, then BOM, then `<meta>`; else UTF-8, or windows-1252 when the bytes are not valid UTF-8. */
export function decodeBody(
  bytes: Buffer,
  contentTypeHeader: string | undefined,
  mediaTypeName: string,
): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes)
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes)
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes)
  const declared =
    decoder(charsetOf(contentTypeHeader)) ??
    (mediaTypeName.includes('html') ? decoder(metaCharset(bytes)) : undefined)
  if (declared && declared.encoding !== 'utf-8') return declared.decode(bytes)
  try {
    // `stream: true`: a body cut at maxBytes may end inside a character, which is not an encoding error.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true })
  } catch {
    return new TextDecoder('windows-1252').decode(bytes)
  }
}
