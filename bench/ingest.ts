#!/usr/bin/env node
/**
 * Webhook ingest on the production build (issue 7): how fast the receivers store, enqueue and acknowledge.
 *
 * Reproduce: `npm run bench:ingest` (builds the app first if build/server/index.js is missing).
 * Two passes: a throwaway PostgreSQL 15 cluster (scripts/lib/postgres.js; DATABASE_URL), then PGlite (the embedded
 * default). In each pass:
 *  1. channels are created directly in the database: Telegram bots (webhook secret), Facebook pages and WhatsApp
 *     numbers, none with an agent;
 *  2. the production server starts (`node --import tsx server/index.ts`, NODE_ENV=production,
 *     EMBEDDED_DEFAULTS=true, META_APP_SECRET set). The reply worker: off on PostgreSQL (WORKER_IN_PROCESS=false,
 *     production runs workers apart), on in the web process on PGlite (where it must be: one process only) but
 *     with nothing to answer (no agent), so it only marks each message "received";
 *  3. autocannon sends BENCH_REQUESTS (10,000) correctly signed, all different webhook requests, Telegram and Meta
 *     (Messenger, WhatsApp) mixed, at BENCH_CONNECTIONS (64) concurrent connections, after a warm-up of
 *     BENCH_WARMUP (500) requests; it prints requests/s and p50/p99 acknowledgement latency;
 *  4. a baseline under the same load: a bare node:http server that does one INSERT per request (the raw body)
 *     into the same database (PostgreSQL: a pool of the app's size; PGlite: the same data directory);
 *  5. checks: every request acknowledged produced exactly one stored message (lost and duplicated counted), and
 *     on PostgreSQL one reply job each.
 * The requests go to 100 conversations (a request's channel and chat follow from its number modulo 100): each
 * gets about 105 short messages in a run, with one new word each.
 * BENCH_HISTORY=<n> (PostgreSQL): before the warm-up, each of those conversations is first sent n earlier
 * messages of varied words (through the receivers, not measured; their reply jobs then deleted and the tables
 * vacuumed), so that the load meets conversations with a long history, as a business's long-running chats are.
 * BENCH_DATABASES=postgres or pglite runs one pass; BENCH_PROFILE_DIR=<dir> writes a CPU profile of the server;
 * BENCH_NODE_IMPORT=<module> has the server import a module first (e.g. one that counts its statements).
 * Exit code 1 when a check fails or a PostgreSQL target is missed
 * (at least 1,000 requests/s, p99 under 100 ms, at least 0.5 of the baseline).
 */
import { spawn } from 'node:child_process'
import { randomBytes, randomInt } from 'node:crypto'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../app/db/client.server'
import { channels, organizations } from '../app/db/schema'
import { signMetaPayload } from '../app/integrations/meta/signature.server'
import { encryptSecret, sha256 } from '../app/utils/crypto.server'
import { finishBench, runBench } from './report'
import { startThrowawayPostgres } from '../scripts/lib/postgres.js'
import { buildAppIfMissing, freePort } from '../scripts/lib/processes.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const TOTAL = Number(process.env.BENCH_REQUESTS) || 10_000
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS) || 64
const WARMUP = Number(process.env.BENCH_WARMUP ?? 500)
const HISTORY = Number(process.env.BENCH_HISTORY ?? 0)
const DATABASES = (process.env.BENCH_DATABASES ?? 'postgres,pglite').split(',').map((d) => d.trim())
const APP_SECRET = randomBytes(16).toString('hex')
const ENCRYPTION_KEY = randomBytes(32).toString('hex')
const SESSION_SECRET = randomBytes(32).toString('hex')
const TELEGRAM_BOTS = 20
const PAGES = 10
const NUMBERS = 10
const CHATS_PER_CHANNEL = 50
const START_TIMEOUT_MS = 90_000
const TARGET = { requestsPerSecond: 1000, p99Ms: 100, ratio: 0.5 }

type Database = 'postgres' | 'pglite'
type Channels = {
  telegram: { id: string; secret: string }[]
  pages: string[]
  numbers: string[]
}
/** `key`: the message's platform id; `conversation`: its channel and chat. */
type BenchRequest = {
  path: string
  headers: Record<string, string>
  body: string
  key: string
  conversation: string
}
type Load = {
  requestsPerSecond: number
  p50: number
  p99: number
  ok: number
  non2xx: number
  errors: number
  seconds: number
}

/** Channels for the requests, none with an agent; migrations run first (as the server would). */
async function seedChannels(databaseUrl: string | undefined, dataDir: string): Promise<Channels> {
  const handle = await openDatabase({
    databaseUrl,
    dataDir,
    migrationsFolder: path.join(ROOT, 'app/db/migrations'),
  })
  try {
    const [org] = await handle.db
      .insert(organizations)
      .values({ name: 'Bench' })
      .returning({ id: organizations.id })
    const token = encryptSecret('bench-token', ENCRYPTION_KEY)
    const telegram = Array.from({ length: TELEGRAM_BOTS }, () => ({
      botId: String(randomInt(1_000_000_000, 9_000_000_000)),
      secret: randomBytes(24).toString('base64url'),
    }))
    const rows = await handle.db
      .insert(channels)
      .values(
        telegram.map((bot) => ({
          organizationId: org.id,
          platformName: 'telegram' as const,
          channelType: 'telegram_bot' as const,
          platformChannelId: bot.botId,
          accessTokenEncrypted: token,
          webhookSubscribed: true,
          webhookSecretHash: sha256(bot.secret),
          metadata: { name: 'Bench bot' },
        })),
      )
      .returning({ id: channels.id })
    const pages = Array.from({ length: PAGES }, () => String(randomInt(1_000_000_000, 9_000_000_000)))
    const numbers = Array.from({ length: NUMBERS }, () => String(randomInt(1_000_000_000, 9_000_000_000)))
    await handle.db.insert(channels).values([
      ...pages.map((id) => ({
        organizationId: org.id,
        platformName: 'facebook' as const,
        channelType: 'facebook_page' as const,
        platformChannelId: id,
        accessTokenEncrypted: token,
        metadata: { name: 'Bench page' },
      })),
      ...numbers.map((id) => ({
        organizationId: org.id,
        platformName: 'whatsapp' as const,
        channelType: 'whatsapp_number' as const,
        platformChannelId: id,
        accessTokenEncrypted: token,
        metadata: { name: 'Bench number' },
      })),
    ])
    return { telegram: rows.map((row, i) => ({ id: row.id, secret: telegram[i].secret })), pages, numbers }
  } finally {
    await handle.close()
  }
}

/**
 * Every request different and correctly signed: half Telegram updates (secret header), a quarter Messenger and a
 * quarter WhatsApp deliveries (X-Hub-Signature-256 over the exact bytes). `key` is the message's platform id.
 */
function buildRequests(
  targets: Channels,
  count: number,
  tag: string,
  offset: number,
  textOf: (i: number) => string = (i) => `Bench message ${tag}-${i}: where is my order?`,
): BenchRequest[] {
  const now = Math.floor(Date.now() / 1000)
  return Array.from({ length: count }, (_, n) => {
    const i = offset + n
    const chat = i % CHATS_PER_CHANNEL
    const text = textOf(i)
    if (i % 4 < 2) {
      const bot = targets.telegram[i % targets.telegram.length]
      const chatId = 500_000 + chat
      const messageId = 1_000_000 + i
      const body = JSON.stringify({
        update_id: 10_000_000 + i,
        message: {
          message_id: messageId,
          date: now,
          chat: { id: chatId, type: 'private', first_name: 'Ann' },
          from: { id: chatId, is_bot: false, first_name: 'Ann' },
          text,
        },
      })
      return {
        path: `/webhooks/telegram/${bot.id}`,
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': bot.secret },
        body,
        key: `${chatId}:${messageId}`,
        conversation: `${bot.id}:${chatId}`,
      }
    }
    const meta = (payload: unknown, key: string, conversation: string): BenchRequest => {
      const body = JSON.stringify(payload)
      return {
        path: '/webhooks/meta',
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': signMetaPayload(body, APP_SECRET),
        },
        body,
        key,
        conversation,
      }
    }
    if (i % 4 === 2) {
      const page = targets.pages[i % targets.pages.length]
      const mid = `m_bench_${tag}_${i}`
      return meta(
        {
          object: 'page',
          entry: [
            {
              id: page,
              time: Date.now(),
              messaging: [
                {
                  sender: { id: `psid-${chat}` },
                  recipient: { id: page },
                  timestamp: Date.now(),
                  message: { mid, text },
                },
              ],
            },
          ],
        },
        mid,
        `${page}:psid-${chat}`,
      )
    }
    const number = targets.numbers[i % targets.numbers.length]
    const wamid = `wamid.bench_${tag}_${i}`
    const from = String(15_550_000_000 + chat)
    return meta(
      {
        object: 'whatsapp_business_account',
        entry: [
          {
            id: 'waba-bench',
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: { display_phone_number: '+1 555 0100', phone_number_id: number },
                  contacts: [{ wa_id: from, profile: { name: 'Ann' } }],
                  messages: [{ from, id: wamid, timestamp: String(now), type: 'text', text: { body: text } }],
                },
              },
            ],
          },
        ],
      },
      wamid,
      `${number}:${from}`,
    )
  })
}

/**
 * A chat message of 8-15 words drawn from 5,000 made-up words by Zipf's law (a word's frequency falls with its
 * rank, as in real text), the same for the same i: a long conversation keeps meeting words it has not had yet.
 */
const historyText = (() => {
  const syllables = 'ka lo mi ne ru sa to vi de po ga li ber tan os'.split(' ')
  const vocabulary = Array.from({ length: 5_000 }, (_, rank) => {
    let word = ''
    for (let r = rank + 1; r > 0; r = Math.floor(r / syllables.length))
      word += syllables[r % syllables.length]
    return word
  })
  const cumulative: number[] = []
  vocabulary.reduce((sum, _, rank) => (cumulative[rank] = sum + 1 / (rank + 1)), 0)
  const total = cumulative[cumulative.length - 1]
  const pick = (x: number) => {
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid] < x * total) lo = mid + 1
      else hi = mid
    }
    return vocabulary[lo]
  }
  return (i: number) => {
    let seed = (i * 2_654_435_761) >>> 0
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32
    return Array.from({ length: 8 + (i % 8) }, () => pick(next())).join(' ')
  }
})()

/**
 * After the history: its reply jobs gone, as the worker (off here) would have done them, and the tables vacuumed
 * and analyzed, as autovacuum would have by then; the load then meets a settled database with long conversations.
 */
async function settle(databaseUrl: string | undefined, dataDir: string) {
  const handle = await openDatabase({
    databaseUrl,
    dataDir,
    migrationsFolder: path.join(ROOT, 'app/db/migrations'),
  })
  try {
    await handle.pool?.query(`delete from pgboss.job where name = 'reply'`)
    await handle.pool?.query('vacuum analyze')
  } finally {
    await handle.close()
  }
}

/** autocannon over a pre-built list: each request taken once, in order, whichever connection sends it. */
async function load(url: string, requests: BenchRequest[], connections: number): Promise<Load> {
  let next = 0
  // The run's length from our own clock, up to the last answer: autocannon notices that an `amount` run is over
  // only at its next once-a-second tick, so its `duration` rounds every run up to whole seconds (a 2.1 s run
  // reads 3.02 s), which made both sides' requests/s, and their ratio, step in whole seconds.
  const startedAt = performance.now()
  let lastAnswerAt = startedAt
  const result = await autocannon({
    url,
    connections,
    pipelining: 1,
    amount: requests.length,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const item = requests[next++ % requests.length]
          return { ...request, method: 'POST', path: item.path, headers: item.headers, body: item.body }
        },
        onResponse: () => {
          lastAnswerAt = performance.now()
        },
      },
    ],
  })
  const ok = result['2xx']
  const seconds = (lastAnswerAt - startedAt) / 1000
  return {
    requestsPerSecond: ok / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    seconds,
  }
}

function startProcess(args: string[], env: NodeJS.ProcessEnv, logFile: string) {
  const fd = openSync(logFile, 'a')
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', fd, fd] })
  closeSync(fd)
  return {
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref()
      }),
  }
}

async function waitForHealth(url: string, child: ReturnType<typeof startProcess>['child'], logFile: string) {
  const deadline = Date.now() + START_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`The server did not become healthy:\n${readFileSync(logFile, 'utf8').slice(-4000)}`)
}

type Stored = { messages: number; lost: number; duplicated: number; jobs: number | undefined }

/** What the database holds for the requests' platform message ids. */
async function checkStored(databaseUrl: string | undefined, dataDir: string, requests: BenchRequest[]) {
  const handle = await openDatabase({
    databaseUrl,
    dataDir,
    migrationsFolder: path.join(ROOT, 'app/db/migrations'),
  })
  try {
    const rows: unknown = await handle.db.execute(
      sql`select platform_message_id as key, count(*)::int as n from messages where direction = 'inbound' group by 1`,
    )
    const list = Array.isArray(rows) ? rows : (rows as { rows: { key: string; n: number }[] }).rows
    const counts = new Map<string, number>(list.map((row: { key: string; n: number }) => [row.key, row.n]))
    let lost = 0
    let duplicated = 0
    for (const request of requests) {
      const n = counts.get(request.key) ?? 0
      if (n === 0) lost += 1
      if (n > 1) duplicated += n - 1
    }
    let jobs: number | undefined
    if (handle.driver === 'postgres') {
      const result = await handle.pool?.query(
        `select count(*)::int as n from pgboss.job where name = 'reply'`,
      )
      jobs = result?.rows[0]?.n
    }
    return {
      messages: [...counts.values()].reduce((a, b) => a + b, 0),
      lost,
      duplicated,
      jobs,
    } satisfies Stored
  } finally {
    await handle.close()
  }
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits })

async function pass(database: Database) {
  const dir = mkdtempSync(path.join(tmpdir(), `replypilot-bench-${database}-`))
  const dataDir = path.join(dir, 'data')
  const postgres = database === 'postgres' ? await startThrowawayPostgres() : undefined
  const databaseUrl = postgres?.url
  const failures: string[] = []
  try {
    const targets = await seedChannels(databaseUrl, dataDir)
    const warmup = buildRequests(targets, WARMUP, `${database}-warm`, 0)
    const requests = buildRequests(targets, TOTAL, database, WARMUP)
    // HISTORY messages for each conversation the requests write to (100: a request's channel and chat follow
    // from its number modulo 100), sent in the same rotation. PostgreSQL only: on PGlite the in-process worker
    // would first have to work through the history's jobs.
    const conversations = new Set(requests.map((r) => r.conversation)).size
    const history = buildRequests(
      targets,
      database === 'postgres' ? HISTORY * conversations : 0,
      `${database}-history`,
      WARMUP + TOTAL,
      historyText,
    )

    const port = await freePort()
    const logFile = path.join(dir, 'server.log')
    // BENCH_PROFILE_DIR: a V8 CPU profile of the server (open it in Chrome's DevTools).
    const profile = process.env.BENCH_PROFILE_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE_DIR)}`]
      : process.env.BENCH_NODE_IMPORT
        ? ['--import', process.env.BENCH_NODE_IMPORT]
        : []
    const server = startProcess(
      [...profile, '--import', 'tsx', 'server/index.ts'],
      {
        ...process.env,
        NODE_ENV: 'production',
        EMBEDDED_DEFAULTS: 'true',
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl ?? '',
        SESSION_SECRET,
        ENCRYPTION_KEY,
        META_APP_ID: '1234567890',
        META_APP_SECRET: APP_SECRET,
        WORKER_IN_PROCESS: database === 'postgres' ? 'false' : 'true',
        PUBLIC_URL: `https://bench.example.com`,
      },
      logFile,
    )
    const base = `http://127.0.0.1:${port}`
    /** Once the process answers /healthz: the warm-up, then the measured load; the process is stopped after. */
    const measure = async (served: ReturnType<typeof startProcess>, log: string) => {
      try {
        await waitForHealth(`${base}/healthz`, served.child, log)
        if (served === server && history.length > 0) {
          const sent = await load(base, history, CONNECTIONS)
          console.log(
            `history: ${fmt(sent.ok)} earlier messages sent in ${fmt(sent.seconds, 1)} s (not measured)`,
          )
          await settle(databaseUrl, dataDir)
        }
        if (warmup.length > 0) await load(base, warmup, Math.min(16, CONNECTIONS))
        return await load(base, requests, CONNECTIONS)
      } finally {
        await served.stop()
      }
    }
    const app = await measure(server, logFile)

    const stored = await checkStored(databaseUrl, dataDir, [...history, ...warmup, ...requests])

    const baselineLog = path.join(dir, 'baseline.log')
    const baseline = startProcess(
      ['--import', 'tsx', 'bench/insert-baseline-server.ts'],
      { ...process.env, PORT: String(port), DATABASE_URL: databaseUrl ?? '', DATA_DIR: dataDir },
      baselineLog,
    )
    const bare = await measure(baseline, baselineLog)

    const ratio = app.requestsPerSecond / bare.requestsPerSecond
    const worker =
      database === 'postgres'
        ? 'reply worker off (WORKER_IN_PROCESS=false: production runs `npm run worker` apart)'
        : 'reply worker on in the web process (PGlite: one process), channels without an agent'
    console.log(`\n== ${database === 'postgres' ? 'PostgreSQL 15 (throwaway cluster)' : 'PGlite'}: ${worker}`)
    console.log(
      `receivers: ${fmt(app.requestsPerSecond)} req/s, p50 ${fmt(app.p50, 1)} ms, p99 ${fmt(app.p99, 1)} ms ` +
        `(${fmt(app.ok)} acknowledged, ${app.non2xx} non-2xx, ${app.errors} errors, ${fmt(app.seconds, 1)} s)`,
    )
    console.log(
      `baseline (node:http + one INSERT): ${fmt(bare.requestsPerSecond)} req/s, p50 ${fmt(bare.p50, 1)} ms, ` +
        `p99 ${fmt(bare.p99, 1)} ms (${bare.non2xx} non-2xx, ${bare.errors} errors)`,
    )
    console.log(`ratio receivers / baseline: ${ratio.toFixed(2)}`)
    const expected = history.length + warmup.length + requests.length
    console.log(
      `stored: ${fmt(stored.messages)} messages for ${fmt(expected)} requests (warm-up and history included): ` +
        `${stored.lost} lost, ${stored.duplicated} duplicated` +
        (stored.jobs === undefined ? '' : `; ${fmt(stored.jobs)} reply jobs`),
    )

    if (app.non2xx + app.errors > 0)
      failures.push(`${database}: ${app.non2xx + app.errors} requests not acknowledged`)
    if (stored.lost + stored.duplicated > 0 || stored.messages !== expected) {
      failures.push(`${database}: ${stored.lost} lost, ${stored.duplicated} duplicated`)
    }
    // The history's jobs were deleted after it (see settle).
    if (stored.jobs !== undefined && stored.jobs !== expected - history.length) {
      failures.push(`${database}: ${stored.jobs} reply jobs for ${expected - history.length} messages`)
    }
    if (database === 'postgres') {
      if (app.requestsPerSecond < TARGET.requestsPerSecond) failures.push('postgres: under 1,000 req/s')
      if (app.p99 >= TARGET.p99Ms) failures.push('postgres: p99 not under 100 ms')
      if (ratio < TARGET.ratio) failures.push('postgres: under 0.5 of the baseline')
    }
  } finally {
    await postgres?.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  return failures
}

async function main() {
  buildAppIfMissing()
  console.log(
    `bench:ingest: ${fmt(TOTAL)} signed webhook requests (1/2 Telegram, 1/4 Messenger, 1/4 WhatsApp; ` +
      `${TELEGRAM_BOTS + PAGES + NUMBERS} channels, ${CHATS_PER_CHANNEL} chats each) at ${CONNECTIONS} connections, ` +
      `after ${WARMUP} warm-up requests` +
      (HISTORY > 0 ? ` and about ${HISTORY} earlier messages in every chat` : ''),
  )
  console.log(
    `machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  const failures: string[] = []
  for (const database of DATABASES) {
    if (database !== 'postgres' && database !== 'pglite') throw new Error(`Unknown database ${database}`)
    failures.push(...(await pass(database)))
  }
  finishBench(failures, 'All checks passed.')
}

runBench(main)
