import { randomBytes, randomInt, randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { createServer, request as httpRequest, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messages } from '~/db/schema'
import { insertChannel } from '~/services/channels/channels.server'
import { connectTelegramBot, setTelegramWebhook } from '~/services/channels/telegram.server'
import { deliverSignedWebhook } from '../../tests/fakes/graph-server'
import { startTelegramFake, type TelegramFake } from '../../tests/fakes/telegram-server'
import { textUpdate } from '../../tests/setup/pipeline'
import { newOwnerScope } from '../../tests/setup/scope'
import { closeRuntime, getRuntime, type Runtime } from '~/runtime/runtime.server'
import { callFromNode, receiveMetaCall, receiveTelegramCall } from '~/http/webhook-receivers.server'

// The receivers as the production server entry mounts them: straight on Node's request, no Remix, no Fetch
// Request (docs/decisions/024), with the process's batched store and coalesced channel lookups.
const APP_SECRET = 'node-receivers-app-secret'
let runtime: Runtime
let telegram: TelegramFake
let server: Server
let base: string
const savedEnv = { ...process.env }

beforeAll(async () => {
  telegram = await startTelegramFake()
  server = createServer((req, res) => {
    const match = /^\/webhooks\/telegram\/([^/?]+)$/.exec(req.url ?? '')
    const answer = match
      ? receiveTelegramCall(runtime, match[1], callFromNode(req))
      : receiveMetaCall(runtime, callFromNode(req))
    answer.then(
      ({ status, body }) => res.writeHead(status, { 'content-type': 'application/json' }).end(body),
      () => res.writeHead(500).end(),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  base = `http://127.0.0.1:${address.port}`
  Object.assign(process.env, {
    DATABASE_URL: process.env.DATABASE_URL || 'memory://',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'replypilot-node-receivers-')),
    PUBLIC_URL: base,
    TELEGRAM_UPDATES: 'webhook',
    TELEGRAM_API_ROOT: telegram.apiRoot,
    META_APP_ID: '5550004',
    META_APP_SECRET: APP_SECRET,
    WORKER_IN_PROCESS: 'false',
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'error',
  })
  runtime = await getRuntime({ queueSchema: `pgboss_${randomUUID().replaceAll('-', '').slice(0, 12)}` })
}, 90_000) // a whole runtime boots: slow on a loaded machine
afterAll(async () => {
  await closeRuntime()
  await Promise.all([telegram.close(), new Promise((resolve) => server.close(resolve))])
  process.env = savedEnv
})

async function newBot() {
  const scope = await newOwnerScope(runtime.database.db)
  const token = `${randomInt(1_000_000_000, 9_000_000_000)}:${randomBytes(27).toString('base64url').slice(0, 35)}`
  telegram.addBot({ token, username: `node_${randomInt(1e6)}_bot` })
  const deps = { ...runtime.config, telegram: runtime.telegram }
  const channel = await connectTelegramBot(scope, { botToken: token }, deps)
  await setTelegramWebhook(scope, channel.id, true, deps)
  return { scope, token, channelId: channel.id, secret: telegram.webhooks.get(token)?.secretToken ?? '' }
}

function post(url: string, body: string, headers: Record<string, string>) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })
}

/** A POST whose body streams without a Content-Length (chunked), as a lying or unbounded client sends it. */
function postChunked(url: string, headers: Record<string, string>, chunks: Buffer[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    for (const chunk of chunks) req.write(chunk)
    req.end()
  })
}

const storedOf = (channelIds: string[]) =>
  runtime.database.db.select().from(messages).where(inArray(messages.channelId, channelIds))

describe('the receivers on Node’s request', () => {
  it('store and acknowledge concurrent deliveries for many channels, each exactly once', async () => {
    const bots = await Promise.all([newBot(), newBot(), newBot()])
    const deliveries = bots.flatMap((bot, b) =>
      Array.from({ length: 10 }, (_, i) => ({ bot, update: textUpdate(990_000 + b, `m${i}`) })),
    )
    const statuses = await Promise.all(
      [...deliveries, deliveries[0]].map(({ bot, update }) =>
        post(`${base}/webhooks/telegram/${bot.channelId}`, JSON.stringify(update), {
          'x-telegram-bot-api-secret-token': bot.secret,
        }).then((r) => r.status),
      ),
    )
    expect(statuses).toEqual(Array(31).fill(200))
    const stored = await storedOf(bots.map((b) => b.channelId))
    expect(stored).toHaveLength(30)
    for (const bot of bots) {
      const own = stored.filter((m) => m.channelId === bot.channelId).sort((a, b) => a.sequence - b.sequence)
      expect(own).toHaveLength(10)
      expect(new Set(own.map((m) => m.text))).toEqual(new Set(Array.from({ length: 10 }, (_, i) => `m${i}`)))
    }
  })

  it('refuse what the Remix routes refuse, storing nothing', async () => {
    const bot = await newBot()
    const url = `${base}/webhooks/telegram/${bot.channelId}`
    const update = JSON.stringify(textUpdate(991_000, 'nope'))
    expect((await post(url, update, { 'x-telegram-bot-api-secret-token': 'forged' })).status).toBe(401)
    expect((await post(url, '{"update_id":', { 'x-telegram-bot-api-secret-token': bot.secret })).status).toBe(
      400,
    )
    expect(
      (
        await post(`${base}/webhooks/telegram/${randomUUID()}`, update, {
          'x-telegram-bot-api-secret-token': 'x',
        })
      ).status,
    ).toBe(404)
    expect((await post(`${base}/webhooks/telegram/not-a-uuid`, update, {})).status).toBe(404)
    const big = Array.from({ length: 3 }, () => Buffer.alloc(400 * 1024, 'a'))
    const headers = { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': bot.secret }
    expect(await postChunked(url, headers, big)).toBe(413)
    expect(await postChunked(`${base}/webhooks/meta`, { 'content-type': 'application/json' }, big)).toBe(413)
    const meta = { object: 'page', entry: [] }
    expect((await deliverSignedWebhook(`${base}/webhooks/meta`, meta, 'another-secret')).status).toBe(401)
    expect(await storedOf([bot.channelId])).toEqual([])
  })

  it('find Meta channels by page and number, one delivery or many at once', async () => {
    const scope = await newOwnerScope(runtime.database.db)
    const pageId = String(randomInt(1_000_000_000, 9_000_000_000))
    const page = await insertChannel(scope, runtime.config, {
      platformName: 'facebook',
      channelType: 'facebook_page',
      platformChannelId: pageId,
      accessToken: `EAA${randomBytes(16).toString('hex')}`,
      metadata: { name: 'Shop' },
    })
    const delivery = (pid: string, text: string) => ({
      object: 'page',
      entry: [
        {
          id: pid,
          time: Date.now(),
          messaging: [
            {
              sender: { id: 'psid-node' },
              recipient: { id: pid },
              timestamp: Date.now(),
              message: { mid: `m_${randomUUID()}`, text },
            },
          ],
        },
      ],
    })
    const statuses = await Promise.all(
      ['a', 'b', 'c'].map((text) =>
        deliverSignedWebhook(`${base}/webhooks/meta`, delivery(pageId, text), APP_SECRET).then(
          (r) => r.status,
        ),
      ),
    )
    expect(statuses).toEqual([200, 200, 200])
    const unknown = await deliverSignedWebhook(`${base}/webhooks/meta`, delivery('123', 'x'), APP_SECRET)
    expect(unknown.status).toBe(404)
    const stored = await runtime.database.db.select().from(messages).where(eq(messages.channelId, page.id))
    expect(stored.map((m) => m.text).sort()).toEqual(['a', 'b', 'c'])
  })
})
