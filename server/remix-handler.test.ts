import { Agent, request as httpRequest } from 'node:http'
import net from 'node:net'
import type { ServerBuild } from '@remix-run/node'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveNode } from '../tests/setup/route-server'
import { remixHandler } from './remix-handler'

// The Remix handler of the HTTP entry (server/index.ts) over real HTTP, in front of a one-route Remix build whose
// action counts the posts that reach it.
let reached = 0
const build: ServerBuild = {
  mode: 'production',
  entry: { module: { default: () => new Response('page') } },
  routes: {
    root: {
      id: 'root',
      path: '',
      module: {
        default: () => null,
        action: () => {
          reached++
          return null
        },
      },
    },
  },
  assets: {
    entry: { imports: [], module: '/entry.js' },
    routes: {
      root: {
        id: 'root',
        path: '',
        module: '/root.js',
        hasAction: true,
        hasLoader: false,
        hasClientAction: false,
        hasClientLoader: false,
        hasErrorBoundary: false,
      },
    },
    url: '/manifest.js',
    version: '1',
  },
  publicPath: '/',
  assetsBuildDirectory: 'build/client',
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
  isSpaMode: false,
}

let http: Awaited<ReturnType<typeof serveNode>>
beforeAll(async () => {
  const app = express()
  app.all('*', remixHandler(build, 'production', () => ({})))
  http = await serveNode(app)
})
afterAll(() => http.close())

const postForm = (headers: Record<string, string>) =>
  fetch(`${http.url}/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: 'intent=create&name=Planted',
    redirect: 'manual',
  })

describe('a state-changing page request from another site', () => {
  it('is refused with 403 when only its Referer names another site, and reaches no action', async () => {
    for (const referer of ['https://evil.example/page', 'http://127.0.0.1:1/', 'not a url']) {
      const before = reached
      const response = await postForm({ Referer: referer })
      expect(response.status, referer).toBe(403)
      expect(await response.text()).toBe('Cross-site requests are not allowed')
      expect(reached, referer).toBe(before)
    }
  })

  it('passes with a Referer of our own origin, or with no Origin, Referer or Sec-Fetch-Site at all', async () => {
    const cases: Record<string, string>[] = [{ Referer: `${http.url}/settings` }, {}]
    for (const headers of cases) {
      const before = reached
      const response = await postForm(headers)
      expect(response.status, JSON.stringify(headers)).toBe(200)
      expect(reached).toBe(before + 1)
    }
  })

  it('is judged by its Origin when it has one, whatever its Referer says', async () => {
    const refused = await postForm({ Origin: 'https://evil.example', Referer: `${http.url}/` })
    expect(refused.status).toBe(403)
    const before = reached
    const passed = await postForm({ Origin: http.url, Referer: `${http.url}/settings` })
    expect(passed.status).toBe(200)
    expect(reached).toBe(before + 1)
  })
})

const MB = 1024 * 1024

/** A raw connection: the request's head and the first bytes of its body go out; resolves with the answer's head. */
function openRaw(head: string, opening: Buffer) {
  // Half-open allowed: the server's end of the connection does not stop this side from sending, as in a browser.
  const socket = net.connect({ port: Number(new URL(http.url).port), host: '127.0.0.1', allowHalfOpen: true })
  socket.on('error', () => undefined)
  let received = ''
  const ended = new Promise<number>((resolve) => socket.once('end', () => resolve(performance.now())))
  const answered = new Promise<string>((resolve) => {
    socket.on('data', (data: Buffer) => {
      received += data.toString('latin1')
      if (received.includes('\r\n\r\n')) resolve(received)
    })
  })
  socket.write(head)
  socket.write(opening)
  return { socket, answered, ended }
}

describe('a body over the cap', () => {
  it('is answered 413 with Connection: close, and the server ends the connection at once', async () => {
    // 64 MB declared, 2 MB sent: the rest never comes, as from a client that stops sending once it is refused.
    const { socket, answered, ended } = openRaw(
      `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${64 * MB}\r\n\r\n`,
      Buffer.alloc(2 * MB, 'a'),
    )
    const head = await answered
    const answeredAt = performance.now()
    expect(head).toMatch(/^HTTP\/1\.1 413 /)
    expect(head.toLowerCase()).toContain('connection: close')
    expect((await ended) - answeredAt, 'the server ends the connection').toBeLessThan(1_000)
    socket.destroy()
    const started = performance.now()
    const next = await postForm({})
    expect(next.status).toBe(200)
    expect(performance.now() - started, 'the next request, on a new connection').toBeLessThan(1_000)
  })

  it('lets a client still sending finish its body without a reset, then ends the connection', async () => {
    const { socket, answered, ended } = openRaw(
      `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${64 * MB}\r\n\r\n`,
      Buffer.alloc(2 * MB, 'a'),
    )
    expect(await answered).toMatch(/^HTTP\/1\.1 413 [^]*connection: close/i)
    const piece = Buffer.alloc(MB, 'a')
    for (let sent = 2 * MB; sent < 64 * MB; sent += piece.length) {
      await new Promise<void>((resolve, reject) =>
        socket.write(piece, (error) => (error ? reject(error) : resolve())),
      )
    }
    await ended
    socket.destroy()
  })

  it('reaches a client library that sends the whole body, which then sends its next request on a new connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const sockets = new Set<unknown>()
      const send = (method: string, body?: Buffer) =>
        new Promise<{ status: number; connection?: string }>((resolve, reject) => {
          const request = httpRequest(`${http.url}/`, { method, agent }, (response) => {
            response.resume()
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, connection: response.headers.connection }),
            )
          })
          request.on('socket', (socket) => sockets.add(socket))
          request.on('error', reject)
          request.end(body)
        })
      const refused = await send('POST', Buffer.alloc(16 * MB, 'a'))
      expect(refused).toEqual({ status: 413, connection: 'close' })
      const started = performance.now()
      expect((await send('GET')).status).toBe(200)
      expect(performance.now() - started).toBeLessThan(1_000)
      expect(sockets.size, 'the next request went out on a new connection').toBe(2)
    } finally {
      agent.destroy()
    }
  })
})
