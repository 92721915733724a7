import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKeepAliveFetch } from './keep-alive-fetch.server'

describe('createKeepAliveFetch', () => {
  let server: Server
  let base: string
  const connections = new Set<unknown>()
  const received: { method?: string; headers: IncomingMessage['headers']; body: string }[] = []

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        received.push({ method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString() })
        if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2_000)
        if (req.url === '/empty') return void res.writeHead(204).end()
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' })
        res.end(JSON.stringify({ error: { message: 'slow down' } }))
      })
    })
    server.on('connection', (socket) => connections.add(socket))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('sends the method, headers and body, and answers with the status, headers and body, over one connection', async () => {
    const fetchKeepAlive = createKeepAliveFetch()
    for (let i = 0; i < 3; i++) {
      const response = await fetchKeepAlive(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
        body: JSON.stringify({ n: i, text: 'héllo' }),
      })
      expect(response.status).toBe(429)
      expect(response.headers.get('retry-after')).toBe('3')
      expect(await response.json()).toEqual({ error: { message: 'slow down' } })
    }
    expect(received.at(-1)).toMatchObject({
      method: 'POST',
      // é is two bytes: the length counts bytes, not characters
      headers: { authorization: 'Bearer sk-test', 'content-length': '23' },
      body: '{"n":2,"text":"héllo"}',
    })
    expect(connections.size).toBe(1)
  })

  it('gives a 204 without a body', async () => {
    const response = await createKeepAliveFetch()(`${base}/empty`, { method: 'POST', body: '' })
    expect(response.status).toBe(204)
    expect(response.body).toBeNull()
  })

  it('rejects with the signal’s reason when aborted, as fetch does', async () => {
    const started = Date.now()
    const call = createKeepAliveFetch()(`${base}/slow`, { signal: AbortSignal.timeout(100) })
    await expect(call).rejects.toMatchObject({ name: 'TimeoutError' })
    expect(Date.now() - started).toBeLessThan(1_500)
  })

  it('fails with TypeError("fetch failed") and the cause when nothing listens', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise((resolve) => closed.close(resolve))
    const error: unknown = await createKeepAliveFetch()(`http://127.0.0.1:${port}/`).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect(error).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } })
  })
})
