/**
 * What server/index.ts promises on SIGTERM (a deploy, a scale-down): a request it is serving is finished and
 * answered, new connections are refused, then it exits with 0. A platform's delivery cut off halfway would be
 * delivered again, but a person's page or API call would fail. PostgreSQL only, like the other drills.
 */
import http from 'node:http'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messages } from '~/db/schema'
import { freePort } from '../../scripts/lib/processes.js'
import { textUpdate } from '../setup/app-rig'
import { waitFor } from '../setup/pipeline'
import { startDrill, type Drill } from './drill-rig'

let drill: Drill
beforeAll(async () => {
  drill = await startDrill({ modelDelayMs: 0 })
}, 60_000)
afterAll(async () => {
  await drill?.close()
}, 30_000)

type Answer = { status: number; body: string }

/** A POST whose body goes out in two halves, the second when `rest()` is called. */
function postInTwoHalves(url: string, headers: Record<string, string>, body: string) {
  const half = Math.floor(body.length / 2)
  let answered: (answer: Answer) => void = () => undefined
  let failed: (error: Error) => void = () => undefined
  const answer = new Promise<Answer>((resolve, reject) => {
    answered = resolve
    failed = reject
  })
  const request = http.request(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    agent: new http.Agent({ keepAlive: true }),
  })
  request.on('response', (response) => {
    let text = ''
    response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
    response.on('end', () => answered({ status: response.statusCode ?? 0, body: text }))
  })
  request.on('error', failed)
  request.write(body.slice(0, half))
  request.flushHeaders()
  return { answer, rest: () => request.end(body.slice(half)) }
}

async function post(url: string, headers: Record<string, string>, body: string): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body,
  })
  return { status: response.status, body: await response.text() }
}

describe('the web process stopped with SIGTERM while it serves a request', () => {
  it('answers that request, refuses new connections, and exits with 0', async () => {
    const port = await freePort()
    const web = drill.startWeb(port)
    await web.printed('"msg":"listening"', 60_000)
    const [bot] = drill.bots
    const url = `http://127.0.0.1:${port}/webhooks/telegram/${bot.channelId}`
    const headers = { 'x-telegram-bot-api-secret-token': bot.secret }

    // A first delivery, answered: the process serves webhooks, and its access line is printed.
    const first = await waitFor(
      () =>
        post(url, headers, JSON.stringify(textUpdate(900_001, 900_001, 900_001, 'web drain warm-up'))).catch(
          () => ({ status: 0, body: '' }),
        ),
      (a) => a.status === 200,
      { timeoutMs: 60_000 },
    )
    expect(first.status).toBe(200)

    const text = 'web drain: sent while the process stops'
    const slow = postInTwoHalves(url, headers, JSON.stringify(textUpdate(900_002, 900_002, 900_002, text)))
    await web.printed('"msg":"request"') // the warm-up's access line: the slow request is now in flight
    web.child.kill('SIGTERM')
    await web.printed('"msg":"stopping"', 5_000)

    // New connections are refused while the request in flight is finished.
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow()
    slow.rest()
    expect(await slow.answer).toEqual({ status: 200, body: JSON.stringify({ ok: true }) })

    await web.exited()
    expect(web.child.exitCode).toBe(0)
    const stored = await drill.handle.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.channelId, bot.channelId), eq(messages.text, text)))
    expect(stored).toHaveLength(1)
  }, 60_000)
})
