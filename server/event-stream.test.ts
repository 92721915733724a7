import { request as httpGet, type IncomingMessage } from 'node:http'
import compression from 'compression'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { defaultContentSecurityPolicy } from '../app/http/content-security-policy.server'
import { eventStream, type EventSink } from '../app/http/event-stream.server'
import { serveNode } from '../tests/setup/route-server'
import { sendRemixResponse } from './remix-handler'

// An event stream behind what the HTTP entry puts in front of Remix (server/index.ts): the compression middleware
// and the default security policy, the response written as the Remix handler writes it. The client accepts gzip,
// as browsers do: nothing may hold the events back.
let sink: EventSink | undefined
const stopped = vi.fn()
let http: Awaited<ReturnType<typeof serveNode>>

beforeAll(async () => {
  const app = express()
  app.use(defaultContentSecurityPolicy)
  app.use(compression())
  app.get('/events', async (req, res) => {
    const gone = new AbortController()
    res.on('close', () => gone.abort())
    const response = await eventStream(
      gone.signal,
      async (s) => {
        sink = s
        return stopped
      },
      { heartbeatMs: 100, retryMs: 1_500 },
    )
    await sendRemixResponse(res, response)
  })
  http = await serveNode(app)
})
afterAll(() => http.close())

/** GET /events with Accept-Encoding: gzip; the text as it arrives. */
async function open() {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    httpGet(`${http.url}/events`, { headers: { 'accept-encoding': 'gzip, deflate, br' } }, resolve)
      .on('error', reject)
      .end()
  })
  let text = ''
  response.setEncoding('utf8')
  response.on('data', (chunk: string) => (text += chunk))
  const ended = new Promise<void>((resolve) => response.on('close', () => resolve()))
  return {
    response,
    text: () => text,
    ended,
    until: (pattern: RegExp) =>
      vi.waitFor(() => expect(text).toMatch(pattern), { timeout: 2_000, interval: 10 }),
  }
}

describe('an event stream behind the HTTP entry', () => {
  it('goes out uncompressed and unbuffered: the retry hint, events and heartbeats as they are written', async () => {
    stopped.mockClear()
    const stream = await open()
    expect(stream.response.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    expect(stream.response.headers['content-encoding']).toBeUndefined()
    expect(stream.response.headers['cache-control']).toBe('no-cache, no-transform')
    await stream.until(/^retry: 1500\n\n/)
    sink?.send('conversation', { conversationId: 'c-1' })
    await stream.until(/event: conversation\ndata: \{"conversationId":"c-1"\}\n\n/)
    await stream.until(/: heartbeat\n\n: heartbeat\n\n/)
    stream.response.destroy()
    await stream.ended
    await vi.waitFor(() => expect(stopped).toHaveBeenCalledTimes(1), { timeout: 2_000 })
  })

  it('ends the response when its source closes it, and stops the source once', async () => {
    stopped.mockClear()
    const stream = await open()
    await stream.until(/^retry: /)
    sink?.close()
    sink?.close()
    await stream.ended
    expect(stream.response.complete).toBe(true)
    expect(stopped).toHaveBeenCalledTimes(1)
  })
})
