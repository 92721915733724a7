import http from 'node:http'
import https from 'node:https'

/**
 * A `fetch` for the model providers over Node's own http client with keep-alive connections: the AI SDK calls
 * `fetch(url, { method, headers, body: string, signal })` and reads the whole answer, and undici's fetch (web
 * streams, Request and Response machinery) was the largest single cost of a model call in the reply worker's
 * profile (bench:pipeline: about 10% of the worker's CPU). What this does not handle (a stream or form body)
 * goes to the global fetch. It fails the way fetch fails: `TypeError('fetch failed', { cause })` when the server
 * cannot be reached, the signal's reason when aborted.
 */
export function createKeepAliveFetch(): typeof fetch {
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
  }
  return async (input, init) => {
    const body = init?.body
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url)
    if (
      !(input instanceof URL || typeof input === 'string') ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      !(body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array)
    ) {
      return fetch(input, init)
    }
    const signal = init?.signal ?? undefined
    signal?.throwIfAborted()
    const headers: Record<string, string> = {}
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value
    })
    const payload = body ?? undefined
    if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload))

    return new Promise<Response>((resolve, reject) => {
      const secure = url.protocol === 'https:'
      const request = (secure ? https : http).request(url, {
        method: init?.method ?? 'GET',
        headers,
        agent: secure ? agents.https : agents.http,
      })
      const onAbort = () => {
        request.destroy()
        reject(signal?.reason)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      const done = () => signal?.removeEventListener('abort', onAbort)
      request.on('error', (error) => {
        done()
        reject(new TypeError('fetch failed', { cause: error }))
      })
      request.on('response', (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', (error) => {
          done()
          reject(new TypeError('fetch failed', { cause: error }))
        })
        response.on('end', () => {
          done()
          const status = response.statusCode ?? 0
          const responseHeaders = new Headers()
          const raw = response.rawHeaders
          for (let i = 0; i < raw.length; i += 2) responseHeaders.append(raw[i], raw[i + 1])
          const nullBody = status === 204 || status === 205 || status === 304 || init?.method === 'HEAD'
          resolve(
            new Response(nullBody ? null : Buffer.concat(chunks), {
              status,
              statusText: response.statusMessage,
              headers: responseHeaders,
            }),
          )
        })
      })
      request.end(payload)
    })
  }
}
