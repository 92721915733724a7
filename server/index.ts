import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express from 'express'
import { defaultContentSecurityPolicy } from '../app/http/content-security-policy.server'
import { ERROR_STATUS } from '../app/utils/errors'
import { createLogger } from '../app/utils/logger.server'
import { readConfigOrExit, runEntry, stopOnSignal } from './process'
import { errorHandler, remixHandler } from './remix-handler'
import { closeAfterAnswer } from './request-guards'

/**
 * The HTTP entry: one Express app around the Remix build. It owns what a route cannot: request ids and access
 * logs, static assets, start-up checks before listening, and a graceful stop. See docs/decisions/006.
 */
// Variables already in the environment win over the file.
if (existsSync('.env')) process.loadEnvFile('.env')

const config = readConfigOrExit()
const logger = createLogger({ level: config.logLevel, base: { component: 'http' } })
const dev = process.argv.includes('--dev')
const port = config.port
const REQUEST_ID = /^[\w.-]{1,64}$/

/** entry.server.tsx exports boot() and shutdown(); the build's types know only Remix's own exports. */
function entryHook(module: object, name: 'boot' | 'shutdown'): () => Promise<void> {
  const hook: unknown = Reflect.get(module, name)
  return async () => {
    if (typeof hook === 'function') await hook()
  }
}

async function loadBuild(): Promise<{
  build: () => Promise<ServerBuild>
  vite?: import('vite').ViteDevServer
}> {
  if (dev) {
    const vite = await import('vite').then((v) => v.createServer({ server: { middlewareMode: true } }))
    const build = async () => {
      const mod: unknown = await vite.ssrLoadModule('virtual:remix/server-build')
      return mod as ServerBuild
    }
    return { build, vite }
  }
  const file = pathToFileURL(path.resolve('build/server/index.js')).href
  const mod: ServerBuild = await import(file)
  return { build: async () => mod }
}

/**
 * What every response gets, whichever door serves it: a request id (the caller's, when it looks like one),
 * security headers, and an access log line when it is finished.
 */
function prepareResponse(req: IncomingMessage, res: ServerResponse) {
  const incoming = req.headers['x-request-id']
  const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : nextRequestId()
  req.headers['x-request-id'] = requestId
  res.setHeader('X-Request-Id', requestId)
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin')
  res.setHeader('X-Frame-Options', 'DENY')
  // Popups (Google sign-in, Facebook login) must still be able to report back to this window.
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin-allow-popups')
  const started = process.hrtime.bigint()
  res.on('finish', () => {
    logger.info('request', {
      requestId,
      method: req.method,
      // The path only: query strings may carry tokens (hub.verify_token, key=...).
      path: pathOf(req),
      status: res.statusCode,
      durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
    })
  })
}

const pathOf = (req: IncomingMessage) => (req.url ?? '/').split('?', 1)[0]

/** Request ids of this process: a random prefix and a counter (a random UUID per request cost 2% of the CPU). */
const requestIdPrefix = randomUUID().slice(0, 8)
let requestCount = 0
const nextRequestId = () => `${requestIdPrefix}-${(++requestCount).toString(36)}`

const TELEGRAM_WEBHOOK = /^\/webhooks\/telegram\/([^/]+)$/

/**
 * The platform receivers straight on Node's request, ahead of Express and Remix (docs/decisions/024 and 027):
 * they are the hot path under load, and need nothing Express or Remix add (routing through every middleware
 * and route, a Fetch Request and Response). The same functions serve the Remix routes, which answer in
 * development (hot reload), for the other methods (405, Meta's GET handshake) and in tests. The handler returns
 * false for any other request, which Express then serves.
 */
async function webhookReceivers() {
  const receivers = await import('../app/http/webhook-receivers.server')
  const { getRuntime } = await import('../app/runtime/runtime.server')
  const runtime = await getRuntime()
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'POST') return false
    const path = pathOf(req)
    const telegram = TELEGRAM_WEBHOOK.exec(path)
    if (!telegram && path !== '/webhooks/meta') return false
    prepareResponse(req, res)
    const call = receivers.callFromNode(req)
    const answer = telegram
      ? receivers.receiveTelegramCall(runtime, telegram[1], call)
      : receivers.receiveMetaCall(runtime, call)
    answer.then(
      ({ status, body }) => {
        closeAfterAnswer(req, res)
        res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(body)
      },
      (error: unknown) => {
        logger.error('webhook failed', { requestId: req.headers['x-request-id'], path, error })
        const { status, message } = ERROR_STATUS.SERVER_ERROR
        if (!res.headersSent) {
          closeAfterAnswer(req, res)
          res.writeHead(status, { 'Content-Type': 'application/json' })
        }
        res.end(JSON.stringify({ ok: false, message }))
      },
    )
    return true
  }
}

async function endEventStreams() {
  const { getRuntime } = await import('../app/runtime/runtime.server')
  const runtime = await getRuntime()
  await runtime.inboxEvents.close()
}

async function main() {
  const { build, vite } = await loadBuild()
  const entry = (await build()).entry.module
  await entryHook(entry, 'boot')()

  const app = express()
  app.disable('x-powered-by')
  // Behind a proxy, TRUST_PROXY (e.g. "loopback" or a hop count) lets req.ip be the client, for rate limits.
  app.set('trust proxy', config.trustProxy)
  app.use((req, res, next) => {
    prepareResponse(req, res)
    next()
  })
  app.use(defaultContentSecurityPolicy)
  app.use(compression())

  if (vite) {
    app.use(vite.middlewares)
  } else {
    // A missing asset is a 404, not the sign-in page: a stale client after a deploy must not get HTML as script.
    app.use(
      '/assets',
      express.static('build/client/assets', { immutable: true, maxAge: '1y', fallthrough: false }),
    )
    app.use(express.static('build/client', { maxAge: '1h' }))
  }
  app.all(
    '*',
    remixHandler(vite ? build : await build(), dev ? 'development' : 'production', (req) => ({
      clientIp: req.ip,
      requestId: req.get('x-request-id'),
    })),
  )
  app.use(errorHandler(logger))

  const receive = vite ? undefined : await webhookReceivers()
  const server = createServer((req, res) => {
    if (!receive?.(req, res)) app(req, res)
  })
  server.listen(port, config.host, () => {
    logger.info('listening', { url: `http://localhost:${port}`, host: config.host ?? 'all addresses' })
    if (config.emulatorExposed) {
      logger.warn(
        `HOST=${config.host} lets other machines reach this instance, and it signs people in with the Firebase Auth emulator, which accepts unsigned tokens: anyone who reaches it can act as any user. Never expose the embedded default to the internet; configure a real Firebase project (FIREBASE_PROJECT_ID, FIREBASE_API_KEY) for that.`,
      )
    }
  })

  stopOnSignal(logger, 10_000, () => {
    server.close(async () => {
      await entryHook(entry, 'shutdown')()
      await vite?.close()
      process.exit(0)
    })
    server.closeIdleConnections()
    // The inbox's event streams last as long as their pages: end them (the browsers reconnect to another
    // process), or close() would wait for them; then close the connections they leave idle.
    endEventStreams().then(
      () => setTimeout(() => server.closeIdleConnections(), 100),
      (error: unknown) => logger.warn('could not end the event streams', { error }),
    )
  })
}

runEntry(logger, main)
