import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import { REQUEST_BODY_LIMITS } from '../app/lib/shared/constants'

/**
 * What the HTTP entry checks before Remix or a route sees a request (docs/decisions/028): the body's size, read
 * no further than its limit, and where a state-changing page request comes from.
 */

/**
 * The largest body a path may send, and what a larger one is told: its own limit where one is set (uploads, whose
 * refusal names the file's limit), else forms' and JSON's.
 */
export function bodyLimitFor(path: string): { maxBytes: number; refusal: Refusal } {
  const own = REQUEST_BODY_LIMITS.byPath.find(({ pattern }) => pattern.test(path))
  if (!own) return { maxBytes: REQUEST_BODY_LIMITS.default, refusal: REFUSALS.tooLarge }
  return {
    maxBytes: own.maxBytes,
    refusal: own.tooLarge ? { ...REFUSALS.tooLarge, message: own.tooLarge } : REFUSALS.tooLarge,
  }
}

const declaredLength = (headers: IncomingHttpHeaders) => Number(headers['content-length'] ?? 0)

/** A body is on its way: a declared length, or a chunked one of any length. */
export const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || declaredLength(req.headers) > 0

export const declaresTooLarge = (req: IncomingMessage, maxBytes: number) =>
  declaredLength(req.headers) > maxBytes

/**
 * The whole body, counted as it streams; `undefined` as soon as it passes `maxBytes` (a chunked body, or one
 * longer than its header said). Nothing past the limit is kept: the caller answers and closes the connection
 * (closeAfterAnswer).
 */
export function readBody(
  req: IncomingMessage,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= maxBytes) return void chunks.push(chunk)
      cleanup()
      resolve(undefined)
    }
    const onEnd = () => {
      cleanup()
      const body = new Uint8Array(size)
      let offset = 0
      for (const chunk of chunks) {
        body.set(chunk, offset)
        offset += chunk.length
      }
      resolve(body)
    }
    const onError = (error: Error) => {
      cleanup()
      reject(error)
    }
    const cleanup = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
  })
}

/** How much of a refused body is still read and dropped, so that the answer reaches a client still sending. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024
const DRAIN_MAX_MS = 5_000

/**
 * Before an answer sent while the body is not yet read to its end (a refusal, a webhook's 413): the answer says
 * `Connection: close` and the server ends its side of the connection as soon as the answer is out, so that the
 * client sends its next request on a new connection at once instead of waiting behind the rest of this body.
 * The rest is still read and dropped, nothing kept (a lingering close, RFC 9112 section 9.6): a socket closed with
 * unread bytes is reset, and a client still sending would see the reset (EPIPE) instead of the answer. The
 * socket is destroyed once the body has ended, or past 64 MB or 5 s. Returns whether the connection will close.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.readableEnded || req.destroyed || !hasBody(req)) return false
  res.setHeader('Connection', 'close')
  const socket = req.socket
  res.once('finish', () => {
    if (req.readableEnded) return
    // Node's own close of a `Connection: close` answer (socket.destroySoon) ends the socket, then destroys it once
    // the end is written, with the client's bytes still unread: that destroy waits for the body instead.
    socket.removeListener('finish', socket.destroy)
    req.once('end', () => socket.destroy())
  })
  drainUnread(req)
  return true
}

/**
 * The rest of a body no one will read is read and dropped (nothing is kept); a body that goes on past 64 MB or
 * 5 s loses its connection.
 */
function drainUnread(req: IncomingMessage) {
  req.removeAllListeners('data')
  let drained = 0
  const cut = () => req.socket.destroy()
  const timer = setTimeout(cut, DRAIN_MAX_MS).unref()
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length
    if (drained > DRAIN_MAX_BYTES) cut()
  })
  req.once('close', () => clearTimeout(timer))
  req.resume()
}

const isApi = (path: string) => path.startsWith('/api/')

/** A refusal in the form the caller reads: the product API's JSON envelope, or plain text for pages. */
export function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  refusal: { status: number; code: string; message: string },
) {
  const path = (req.url ?? '/').split('?', 1)[0]
  const [type, body] = isApi(path)
    ? [
        'application/json',
        JSON.stringify({ success: false, data: null, message: refusal.message, code: refusal.code }),
      ]
    : ['text/plain; charset=utf-8', refusal.message]
  closeAfterAnswer(req, res)
  res
    .writeHead(refusal.status, {
      'Content-Type': type,
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
    })
    .end(body)
}

type Refusal = { status: number; code: string; message: string }

export const REFUSALS = {
  tooLarge: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' },
  crossSite: { status: 403, code: 'FORBIDDEN', message: 'Cross-site requests are not allowed' },
  method: { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed' },
  malformedUrl: { status: 400, code: 'VALIDATION_ERROR', message: 'The address is not a valid URL' },
  failed: { status: 500, code: 'SERVER_ERROR', message: 'Internal server error' },
} as const

/** The methods Remix serves (a Fetch Request cannot even be made for TRACE, TRACK or CONNECT). */
export const SERVED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * A state-changing page request from another site: the browser says so in Sec-Fetch-Site, or its Origin names
 * another host than the one it asked (the X-Forwarded-Host a proxy sets, else Host: Remix's own rule), or, with
 * no Origin, its Referer does (an older browser or a client that sends only a Referer). A request with neither
 * is a non-browser client's and passes, as before. The product API authenticates with a bearer token, not a
 * cookie, and the webhooks with their signatures: neither is a page.
 */
export function isCrossSitePageRequest(req: IncomingMessage, path: string): boolean {
  if (SAFE_METHODS.has(req.method ?? 'GET') || isApi(path) || path.startsWith('/webhooks/')) return false
  const site = req.headers['sec-fetch-site']
  if (site === 'cross-site' || site === 'same-site') return true
  const origin = req.headers.origin ?? req.headers.referer
  if (origin === undefined) return false
  const host = firstValue(req.headers['x-forwarded-host']) ?? req.headers.host
  return origin === 'null' || !host || hostOf(origin) !== host
}

const firstValue = (header: string | string[] | undefined) =>
  (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim() || undefined

/** The host an Origin or a Referer names (a Referer is a whole URL, whose host is all that counts here). */
function hostOf(originOrReferer: string): string | undefined {
  try {
    return new URL(originOrReferer).host
  } catch {
    return undefined
  }
}
