/**
 * `npm run bench:pipeline`: customer messages through the real Telegram webhook receiver and the real reply
 * worker, end to end, and what the platform received.
 *
 * Reproduce: `npm run bench:pipeline` (builds the app first if build/server/index.js is missing). Two passes:
 *   postgres  a throwaway PostgreSQL cluster; the production server (`server/index.ts`, WORKER_IN_PROCESS=false)
 *             receives, and BENCH_WORKERS (default 1) separate `server/worker.ts` processes answer: the
 *             production topology, each process on its own core;
 *   pglite    the embedded default: one process that receives and answers (PGlite admits one process).
 * BENCH_PASSES=postgres or pglite runs one. The model is the OpenAI-compatible fake answering after
 * BENCH_MODEL_DELAY_MS (200); the platform is the Telegram fake. REPLY_WORKER_CONCURRENCY passes through to the
 * app. Each pass runs two phases (BENCH_PHASES=burst,paced), each with BENCH_CONVERSATIONS (100) conversations of
 * its own, spread over 10 bots, each sending BENCH_MESSAGES (10) messages in order, the conversations at once:
 *   burst  each message once the webhook acknowledged the previous one: 1,000 messages in a few seconds, far
 *          more than the pipeline answers in that time. What it can do flat out: its replies/s is the
 *          throughput. Its overhead is mostly the wait for a free worker behind the burst (queueing), printed
 *          but not a target;
 *   paced  BENCH_RATE (100, the throughput target) messages a second, evenly spread over the conversations
 *          (each sends one a second). What a customer waits at that load: its overhead is the latency target.
 * docs/decisions/027 says why the two are measured apart.
 *
 * BENCH_BURST_WAIT_SECONDS (0-30, default 0) gives the seeded agents that burst wait (docs/decisions/041): a
 * customer's messages sent within the wait are answered once. A third phase shape, `bursts` (the only one, and
 * the default, with a wait: the other two shapes' burst boundaries would depend on the machine's timing), sends
 * each conversation's messages in bursts of BENCH_BURST_LINES (3) lines back to back, a burst's answer merging
 * its lines ("Echo: line1\nline2\nline3" from the fake model); the next burst goes once the platform has that
 * answer, so the pause is always longer than the wait and the boundaries are the bench's. Without a wait the same
 * shape answers each line (the comparison). There, a burst answered is the unit: lost, duplicated and out of order
 * count bursts, `stray` counts answers that are no burst's (a burst split or merged with another), and the
 * overhead is what comes beyond the wait (it includes the worker's poll for a job whose wait ended, up to 2 s).
 *
 * BENCH_VOICE_SHARE (0 to 1, default 0): that share of the messages goes as Telegram voice notes (every message
 * whose index in the run's order falls on it), with LLM_TRANSCRIPTION_MODEL set: the Telegram fake serves each
 * clip, the model fake transcribes it to the text the message would have had, so the answer expected is the same
 * (issue 37: a voice note is answered once, in order, from its transcript).
 *
 * Printed per phase: replies/s (replies over the time from the first webhook request to the last reply),
 * acknowledgement p50/p99, and the overhead p50/p99: the time a reply took beyond the model, i.e. platform send
 * time − model time − the moment the message could be answered, which is its webhook acknowledgement or, when
 * later, the previous reply of its conversation going out (replies of a conversation go in order, one at a
 * time, so that wait is the model's time on earlier messages, not ours). The raw figure (send − ack − model, the
 * ordering wait included) is printed too. Then lost, duplicated and out-of-order replies, matched from what
 * the fake platform received to what was sent, and the CPU each process used per reply. Exit code 1 when a
 * target is missed: in every phase every reply, none lost, duplicated or out of order; on PostgreSQL, at least
 * 100 replies/s in the burst and overhead p99 under 200 ms when paced. BENCH_KEEP_LOGS=1 keeps the processes' logs.
 */
import { randomBytes } from 'node:crypto'
import { Agent, request } from 'node:http'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir, uptime } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import path from 'node:path'
import { and, eq } from 'drizzle-orm'
import { openDatabase } from '~/db/client.server'
import { messages } from '~/db/schema'
import { buildAppIfMissing, freePort } from '../scripts/lib/processes.js'
import { startThrowawayPostgres } from '../scripts/lib/postgres.js'
import { startOpenAiFake, wallClockMs, type OpenAiFake } from '../tests/fakes/openai-server'
import { startTelegramFake, type TelegramFake } from '../tests/fakes/telegram-server'
import { sha256Of, voiceNote } from '../tests/fakes/voice-note'
import { seedBots, startAppProcess, textUpdate, type AppProcess, type RigBot } from '../tests/setup/app-rig'

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS) || 100
const MESSAGES = Number(process.env.BENCH_MESSAGES) || 10
const MODEL_DELAY_MS = Number(process.env.BENCH_MODEL_DELAY_MS ?? 200)
const WORKERS = Number(process.env.BENCH_WORKERS) || 1
const BOTS = Math.min(10, CONVERSATIONS)
const PASSES = (process.env.BENCH_PASSES ?? 'postgres,pglite').split(',').map((p) => p.trim())
const SETTLE_TIMEOUT_MS = 120_000
/** After the last expected reply: long enough for a duplicate to show up. */
const QUIET_MS = 2_000
/** BENCH_PROFILE_DIR=<dir>: the app's processes write V8 CPU profiles there (open them in Chrome's DevTools). */
const NODE_ARGS = process.env.BENCH_NODE_IMPORT
  ? ['--import', process.env.BENCH_NODE_IMPORT]
  : process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : []
const TARGETS = { repliesPerSecond: 100, overheadP99Ms: 200 }
/** BENCH_BURST_WAIT_SECONDS: the seeded agents' burst wait (0 answers each message at once). */
const BURST_WAIT_SECONDS = Number(process.env.BENCH_BURST_WAIT_SECONDS ?? 0)
if (!Number.isInteger(BURST_WAIT_SECONDS) || BURST_WAIT_SECONDS < 0 || BURST_WAIT_SECONDS > 30) {
  throw new Error('BENCH_BURST_WAIT_SECONDS is a whole number of seconds from 0 to 30')
}
/** BENCH_VOICE_SHARE: the share of messages sent as voice notes (issue 37). */
const VOICE_SHARE = Number(process.env.BENCH_VOICE_SHARE ?? 0)
if (!(VOICE_SHARE >= 0 && VOICE_SHARE <= 1)) throw new Error('BENCH_VOICE_SHARE is a share from 0 to 1')
/** Whether the run's `n`-th message goes as a voice note: evenly spread, VOICE_SHARE of them. */
const isVoice = (n: number) => Math.floor(n * VOICE_SHARE) !== Math.floor((n - 1) * VOICE_SHARE)
/** BENCH_BURST_LINES: the lines of a burst in the `bursts` phase. */
const BURST_LINES = Number(process.env.BENCH_BURST_LINES) || 3
/** BENCH_PHASES (burst,paced; bursts with a wait): which load shapes run, in order, each with conversations of its own. */
const PHASES = (process.env.BENCH_PHASES ?? (BURST_WAIT_SECONDS > 0 ? 'bursts' : 'burst,paced'))
  .split(',')
  .map((p) => {
    const phase = p.trim()
    if (phase !== 'burst' && phase !== 'paced' && phase !== 'bursts')
      throw new Error(`Unknown phase ${phase}`)
    if (phase !== 'bursts' && BURST_WAIT_SECONDS > 0) {
      throw new Error(
        `With a burst wait only the bursts phase runs: ${phase}'s bursts would depend on timing`,
      )
    }
    return phase
  })
/** The paced phase's messages a second (BENCH_RATE): the throughput target by default. */
const RATE = Number(process.env.BENCH_RATE) || TARGETS.repliesPerSecond
const describeShape = (kind: Shape['kind']) =>
  kind === 'burst'
    ? 'burst (each message once the previous was acknowledged)'
    : kind === 'paced'
      ? `paced at ${RATE} messages/s`
      : `bursts of ${BURST_LINES} lines back to back, the next once the previous was answered, wait ${BURST_WAIT_SECONDS} s`
/** Whether a phase's answers are per burst (one for its lines) rather than per message. */
const answersBursts = (kind: Shape['kind']) => kind === 'bursts' && BURST_WAIT_SECONDS > 0

type Sent = {
  chatId: number
  index: number
  /** The burst the message belongs to in the `bursts` phase (its index in the other phases). */
  burst: number
  text: string
  requestedAt: number
  ackAt: number
  status: number
}

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]
const ms = (value: number) => `${value.toFixed(1)} ms`
const machine = () =>
  `uptime ${(uptime() / 3600).toFixed(1)} h, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${cpus().length} cores`

/** CPU seconds (user + system) each process has used, from /proc (Linux); 0 where it cannot be read. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100 // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0
  }
}

/** The throwaway cluster's processes: its postmaster (found by its port) and the postmaster's children. */
function postgresPids(port: string): number[] {
  const pids = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
  const read = (pid: number, file: string) => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, 'utf8')
    } catch {
      return ''
    }
  }
  const master = pids.find((pid) => {
    const args = read(pid, 'cmdline').split('\0')
    return args[0]?.endsWith('postgres') && args.includes(`-p`) && args[args.indexOf('-p') + 1] === port
  })
  if (master === undefined) return []
  const parentOf = (pid: number) => {
    const stat = read(pid, 'stat')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  }
  return [master, ...pids.filter((pid) => parentOf(pid) === master)]
}

type CpuProbe = { web: number[]; worker: number[]; postgres: () => number[] }
function readCpu(probe: CpuProbe) {
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + cpuSeconds(pid), 0)
  const postgres = new Map(probe.postgres().map((pid) => [pid, cpuSeconds(pid)]))
  return { web: sum(probe.web), worker: sum(probe.worker), postgres, self: process.cpuUsage() }
}
function cpuUsed(before: ReturnType<typeof readCpu>, after: ReturnType<typeof readCpu>) {
  let postgres = 0
  for (const [pid, seconds] of after.postgres) postgres += seconds - (before.postgres.get(pid) ?? 0)
  const self = process.cpuUsage(before.self)
  return {
    web: after.web - before.web,
    worker: after.worker - before.worker,
    postgres,
    bench: (self.user + self.system) / 1e6,
  }
}

/**
 * The platform's side of the webhook: Node's http client with keep-alive connections, lighter than undici's fetch
 * (the load generator shares the two cores with the app).
 */
const webhookAgent = new Agent({ keepAlive: true, maxSockets: 256 })
function postWebhook(bot: RigBot, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = request(bot.webhookUrl, {
      method: 'POST',
      agent: webhookAgent,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'x-telegram-bot-api-secret-token': bot.secret,
      },
    })
    call.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive connection the server closed as idle just as it was reused (conversations of the bursts
      // phase pause for seconds): the request never reached it. Node's documented remedy is to send it again.
      if (call.reusedSocket && error.code === 'ECONNRESET') postWebhook(bot, body).then(resolve, reject)
      else reject(error)
    })
    call.on('response', (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
      response.on('error', reject)
    })
    call.end(body)
  })
}

/**
 * How a conversation's messages go out: `burst` sends each once the webhook acknowledged the previous one (all
 * 1,000 within a few seconds: what the pipeline can do flat out); `paced` sends conversation i's message k at
 * (i + k × conversations) / rate seconds, i.e. `rate` messages a second spread evenly (what a customer waits
 * for at that load). A paced message whose slot comes before the previous one was acknowledged goes at once
 * after it, so that a conversation's messages still arrive in order.
 */
type Shape =
  | { kind: 'burst' }
  | { kind: 'paced'; rate: number; startedAt: number }
  /** `answered(text)`: whether the platform has received that answer. */
  | { kind: 'bursts'; answered: (text: string) => boolean }

/** One conversation: its messages in order, shaped as above. */
async function converse(
  bot: RigBot,
  chatId: number,
  slot: number,
  runTag: string,
  ids: { next: number },
  shape: Shape,
  /** The voice note a text is sent as, when it is one (BENCH_VOICE_SHARE). */
  voiceOf: (bot: RigBot, text: string) => Record<string, unknown>,
): Promise<Sent[]> {
  const sent: Sent[] = []
  for (let index = 0; index < MESSAGES; index++) {
    if (shape.kind === 'paced') {
      const due = shape.startedAt + ((slot + index * CONVERSATIONS) * 1000) / shape.rate
      const wait = due - wallClockMs()
      if (wait > 0) await sleep(wait)
    }
    const burst = shape.kind === 'bursts' ? Math.floor(index / BURST_LINES) : index
    if (shape.kind === 'bursts' && index > 0 && index % BURST_LINES === 0) {
      // The previous burst's answer first: then its lines are settled, and this burst cannot merge with them.
      const expected = unitsOf(sent, 'bursts').at(-1)?.answer ?? ''
      const deadline = Date.now() + SETTLE_TIMEOUT_MS
      while (!shape.answered(expected)) {
        if (Date.now() > deadline) return sent // counted as lost
        await sleep(20)
      }
    }
    const text = `${runTag} chat ${chatId} message ${index}`
    const id = ++ids.next
    const update = textUpdate(id, chatId, id, text)
    const body = JSON.stringify(
      isVoice(id)
        ? { ...update, message: { ...update.message, text: undefined, voice: voiceOf(bot, text) } }
        : update,
    )
    const requestedAt = wallClockMs()
    const status = await postWebhook(bot, body)
    sent.push({ chatId, index, burst, text, requestedAt, ackAt: wallClockMs(), status })
  }
  return sent
}

/**
 * What is answered once: a burst of lines when the agents wait (the fake model echoes the merged turn), each
 * message otherwise. In order per conversation, as sent.
 */
type Unit = {
  chatId: number
  index: number
  /** The customer's turn as the model reads it, and the answer the platform should get. */
  turn: string
  answer: string
  requestedAt: number
  /** The acknowledgement of its last line: from then on it may be answered (after the wait). */
  ackAt: number
  refused: boolean
}
function unitsOf(sent: Sent[], kind: Shape['kind']): Unit[] {
  const groups = new Map<string, Sent[]>()
  for (const s of sent) {
    const key = answersBursts(kind) ? `${s.chatId}:${s.burst}` : `${s.chatId}:${s.index}:m`
    groups.set(key, [...(groups.get(key) ?? []), s])
  }
  return [...groups.values()].map((lines) => {
    const last = lines[lines.length - 1]
    const turn = lines.map((l) => l.text).join('\n')
    return {
      chatId: last.chatId,
      index: answersBursts(kind) ? last.burst : last.index,
      turn,
      answer: `Echo: ${turn}`,
      requestedAt: lines[0].requestedAt,
      ackAt: last.ackAt,
      refused: lines.some((l) => l.status !== 200),
    }
  })
}

type Outcome = {
  pass: string
  kind: Shape['kind']
  /** Messages sent, and the answers expected for them (one per message, or per burst with a wait). */
  messages: number
  units: number
  replies: number
  lost: number
  /** Answers that are no unit's: a burst split, or merged with another. */
  stray: number
  duplicated: number
  outOfOrder: number
  rejected: number
  repliesPerSecond: number
  ackP50: number
  ackP99: number
  overheadP50: number
  overheadP99: number
  rawP50: number
  rawP99: number
  modelCalls: number
  maxModelInFlight: number
  /** Platform acceptance → our record of the send (ADR 021's duplicate window). */
  windowP50: number
  windowP99: number
  windowMax: number
  cpu: ReturnType<typeof cpuUsed>
}

/** What the platform received in answer to a phase's messages (their texts start with its tag). */
const repliesOf = (telegram: TelegramFake, runTag: string) =>
  telegram.calls.filter(
    (c) => c.method === 'sendMessage' && String(c.params.text).startsWith(`Echo: ${runTag}`),
  )

/** Matches what the platform received to what was sent. */
function analyse(
  pass: string,
  kind: Shape['kind'],
  runTag: string,
  sent: Sent[],
  telegram: TelegramFake,
  model: OpenAiFake,
  recordedAt: Map<string, number>,
  cpu: ReturnType<typeof cpuUsed>,
): Outcome {
  const sends = repliesOf(telegram, runTag)
  const units = unitsOf(sent, kind)
  const byText = new Map(units.map((u) => [u.answer, u]))
  const replies = new Map<Unit, number[]>()
  const order = new Map<number, number[]>() // chat id → unit indexes in the order their replies arrived
  let stray = 0
  for (const call of sends) {
    const source = byText.get(String(call.params.text))
    if (!source) {
      stray++
      continue
    }
    replies.set(source, [...(replies.get(source) ?? []), call.at])
    order.set(source.chatId, [...(order.get(source.chatId) ?? []), source.index])
  }
  const modelTime = new Map<string, number>()
  let maxModelInFlight = 0
  const edges: [number, number][] = []
  for (const request of model.requests) {
    const last = request.body.messages.findLast((m) => m.role === 'user')
    if (
      typeof last?.content === 'string' &&
      last.content.startsWith(runTag) &&
      request.answeredAt !== undefined
    ) {
      modelTime.set(last.content, request.answeredAt - request.receivedAt)
      edges.push([request.receivedAt, 1], [request.answeredAt, -1])
    }
  }
  let inFlight = 0
  for (const [, delta] of edges.sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
    inFlight += delta
    maxModelInFlight = Math.max(maxModelInFlight, inFlight)
  }

  let outOfOrder = 0
  for (const indexes of order.values()) {
    let highest = -1
    for (const index of indexes) {
      if (index < highest) outOfOrder++
      highest = Math.max(highest, index)
    }
  }
  const overheads: number[] = []
  const raw: number[] = []
  const firstSendOf = (u: Unit | undefined) => (u ? replies.get(u)?.[0] : undefined)
  const byChat = new Map<number, Unit[]>()
  for (const u of units) byChat.set(u.chatId, [...(byChat.get(u.chatId) ?? []), u])
  // The earliest a unit may be answered: its last line acknowledged, plus the agents' wait.
  const waitMs = BURST_WAIT_SECONDS * 1000
  for (const conversation of byChat.values()) {
    conversation.sort((a, b) => a.index - b.index)
    conversation.forEach((u, i) => {
      const sentAt = firstSendOf(u)
      const modelMs = modelTime.get(u.turn)
      if (sentAt === undefined || modelMs === undefined) return
      const previous = i > 0 ? firstSendOf(conversation[i - 1]) : undefined
      const ready = Math.max(u.ackAt + waitMs, previous ?? 0)
      overheads.push(sentAt - ready - modelMs)
      raw.push(sentAt - u.ackAt - modelMs)
    })
  }
  const windows = sends
    .map((call) => (recordedAt.get(String(call.params.text)) ?? NaN) - call.at)
    .filter((w) => !Number.isNaN(w))
    .sort((a, b) => a - b)
  const acks = sent.map((s) => s.ackAt - s.requestedAt).sort((a, b) => a - b)
  overheads.sort((a, b) => a - b)
  raw.sort((a, b) => a - b)
  const answered = [...replies.values()]
  const allSends = answered.flat()
  const start = Math.min(...sent.map((s) => s.requestedAt))
  const end = Math.max(...allSends)
  const unitsEach = answersBursts(kind) ? Math.ceil(MESSAGES / BURST_LINES) : MESSAGES
  return {
    pass,
    kind,
    messages: sent.length,
    units: CONVERSATIONS * unitsEach,
    replies: allSends.length,
    // What the webhook accepted and never got its answer, and what a conversation gave up sending for it.
    lost:
      units.filter((u) => !u.refused && !replies.has(u)).length + (CONVERSATIONS * unitsEach - units.length),
    stray,
    duplicated: answered.reduce((n, times) => n + times.length - 1, 0),
    outOfOrder,
    rejected: sent.filter((s) => s.status !== 200).length,
    repliesPerSecond: answered.length / ((end - start) / 1000),
    ackP50: quantile(acks, 0.5),
    ackP99: quantile(acks, 0.99),
    overheadP50: quantile(overheads, 0.5),
    overheadP99: quantile(overheads, 0.99),
    rawP50: quantile(raw, 0.5),
    rawP99: quantile(raw, 0.99),
    modelCalls: modelTime.size,
    maxModelInFlight,
    windowP50: quantile(windows, 0.5),
    windowP99: quantile(windows, 0.99),
    windowMax: windows.at(-1) ?? NaN,
    cpu,
  }
}

/** When our database recorded each reply as sent (the statement's clock), by text. */
async function sendRecords(databaseUrl: string | undefined, dataDir: string) {
  const handle = await openDatabase({ databaseUrl, dataDir })
  try {
    const rows = await handle.db
      .select({ text: messages.text, sentAt: messages.platformSentAt })
      .from(messages)
      .where(and(eq(messages.direction, 'outbound'), eq(messages.status, 'sent')))
    return new Map(rows.map((r) => [r.text, r.sentAt?.getTime() ?? NaN]))
  } finally {
    await handle.close()
  }
}

/** Whether the platform has received a text: a set kept up with the fake's calls as they come. */
function answeredAtPlatform(telegram: TelegramFake) {
  const texts = new Set<string>()
  let seen = 0
  return (text: string) => {
    for (; seen < telegram.calls.length; seen++) {
      const call = telegram.calls[seen]
      if (call.method === 'sendMessage') texts.add(String(call.params.text))
    }
    return texts.has(text)
  }
}

async function waitForReplies(telegram: TelegramFake, runTag: string, expected: number) {
  const count = () => repliesOf(telegram, runTag).length
  const deadline = Date.now() + SETTLE_TIMEOUT_MS
  while (count() < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  await new Promise((r) => setTimeout(r, QUIET_MS))
}

async function runPass(pass: string): Promise<Outcome[]> {
  const scratch = mkdtempSync(path.join(tmpdir(), `replypilot-bench-${pass}-`))
  const [telegram, model] = await Promise.all([startTelegramFake(), startOpenAiFake()])
  model.setBehavior({ delayMs: MODEL_DELAY_MS })
  const voiceOf = (bot: RigBot, text: string) => {
    const clip = voiceNote(text)
    model.addTranscript(sha256Of(clip), text)
    return { ...telegram.addFile(bot.token, clip), file_unique_id: text, duration: 1, mime_type: 'audio/ogg' }
  }
  const postgres = pass === 'postgres' ? await startThrowawayPostgres() : undefined
  const processes: AppProcess[] = []
  try {
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}`
    const dataDir = path.join(scratch, 'data')
    const encryptionKey = randomBytes(32).toString('hex')
    const seedDb = await openDatabase({ databaseUrl: postgres?.url, dataDir })
    const bots = await seedBots({
      db: seedDb.db,
      telegram,
      publicUrl,
      encryptionKey,
      count: BOTS,
      behaviour: { burstWaitSeconds: BURST_WAIT_SECONDS },
    })
    await seedDb.close()

    const env: Record<string, string> = {
      NODE_ENV: 'production',
      EMBEDDED_DEFAULTS: 'true',
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: postgres?.url ?? '',
      ENCRYPTION_KEY: encryptionKey,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      TELEGRAM_API_ROOT: telegram.apiRoot,
      // The fake calls the webhook on 127.0.0.1, which auto mode would take for a laptop and long-poll instead.
      TELEGRAM_UPDATES: 'webhook',
      LLM_BASE_URL: model.url,
      LLM_API_KEY: 'sk-bench',
      ...(VOICE_SHARE > 0 && { LLM_TRANSCRIPTION_MODEL: 'whisper-1' }),
      WORKER_IN_PROCESS: postgres ? 'false' : 'true',
    }
    const web = startAppProcess('server/index.ts', env, path.join(scratch, 'web.log'), NODE_ARGS)
    processes.push(web)
    await web.printed('"msg":"listening"')
    if (postgres) {
      for (let i = 0; i < WORKERS; i++) {
        const worker = startAppProcess(
          'server/worker.ts',
          env,
          path.join(scratch, `worker-${i + 1}.log`),
          NODE_ARGS,
        )
        processes.push(worker)
        await worker.printed('"msg":"worker started"')
      }
    }

    const probe: CpuProbe = {
      web: [web.child.pid ?? 0],
      worker: processes.slice(1).map((p) => p.child.pid ?? 0),
      postgres: () => (postgres ? postgresPids(new URL(postgres.url).port) : []),
    }
    const before = machine()
    const ids = { next: 0 }
    const phases: { shape: Shape['kind']; runTag: string; sent: Sent[]; cpu: ReturnType<typeof cpuUsed> }[] =
      []
    for (const [p, kind] of PHASES.entries()) {
      const cpuBefore = readCpu(probe)
      const runTag = randomBytes(3).toString('hex')
      const shape: Shape =
        kind === 'paced'
          ? { kind, rate: RATE, startedAt: wallClockMs() }
          : kind === 'bursts'
            ? { kind, answered: answeredAtPlatform(telegram) }
            : { kind }
      // Each phase has conversations of its own.
      const conversations = Array.from({ length: CONVERSATIONS }, (_, i) =>
        converse(bots[i % bots.length], 100_000 * (p + 1) + i, i, runTag, ids, shape, voiceOf),
      )
      const sent = (await Promise.all(conversations)).flat()
      await waitForReplies(telegram, runTag, unitsOf(sent, kind).length)
      phases.push({ shape: kind, runTag, sent, cpu: cpuUsed(cpuBefore, readCpu(probe)) })
    }
    for (const child of processes.reverse()) await child.stop()
    const recordedAt = await sendRecords(postgres?.url, dataDir)
    const outcomes = phases.map(({ shape, runTag, sent, cpu }) =>
      analyse(
        `${pass}, ${describeShape(shape)}${VOICE_SHARE ? `, ${Math.round(VOICE_SHARE * 100)} % voice notes` : ''}`,
        shape,
        runTag,
        sent,
        telegram,
        model,
        recordedAt,
        cpu,
      ),
    )
    const kept = process.env.BENCH_KEEP_LOGS ? `; logs in ${scratch}` : ''
    console.log(`\n${pass}: ${before} before, ${machine()} after${kept}`)
    return outcomes
  } finally {
    for (const child of processes.reverse()) await child.stop()
    await postgres?.stop()
    await Promise.all([telegram.close(), model.close()])
    if (!process.env.BENCH_KEEP_LOGS) rmSync(scratch, { recursive: true, force: true })
  }
}

/**
 * Prints a phase's figures and returns the targets it missed: exactly once and in order always; when `timed`,
 * capacity in the burst and overhead when paced.
 */
function report(o: Outcome, kind: Shape['kind'], timed: boolean) {
  const cpuMs = (seconds: number) => `${((seconds * 1000) / Math.max(1, o.replies)).toFixed(1)} ms`
  const bursts = answersBursts(kind)
  const unit = bursts ? 'bursts' : 'messages'
  const wait = BURST_WAIT_SECONDS > 0 ? ` + wait ${BURST_WAIT_SECONDS} s` : ''
  console.log(
    [
      `${o.pass}: ${o.replies} replies to ${o.units} ${unit}` +
        (bursts ? ` (${o.messages} messages), ${o.units - o.lost} bursts answered` : '') +
        `, ${o.repliesPerSecond.toFixed(1)} replies/s`,
      `  lost ${o.lost}, duplicated ${o.duplicated}, out of order ${o.outOfOrder}, stray ${o.stray}, ` +
        `webhooks refused ${o.rejected}`,
      `  webhook acknowledgement p50 ${ms(o.ackP50)}, p99 ${ms(o.ackP99)}`,
      `  overhead (send − model − max(ack${wait}, previous reply)) p50 ${ms(o.overheadP50)}, p99 ${ms(o.overheadP99)}`,
      `  raw (send − ack − model, in-order wait${wait} included) p50 ${ms(o.rawP50)}, p99 ${ms(o.rawP99)}`,
      `  model calls ${o.modelCalls}, at most ${o.maxModelInFlight} in flight`,
      `  send window (platform accepted → our record) p50 ${ms(o.windowP50)}, p99 ${ms(o.windowP99)}, max ${ms(o.windowMax)}`,
      `  CPU per reply: web ${cpuMs(o.cpu.web)}, worker ${cpuMs(o.cpu.worker)}, PostgreSQL ${cpuMs(o.cpu.postgres)}, ` +
        `fakes and load ${cpuMs(o.cpu.bench)} (all ${cpuMs(o.cpu.web + o.cpu.worker + o.cpu.postgres + o.cpu.bench)})`,
    ].join('\n'),
  )
  const missed: string[] = []
  if (o.replies !== o.units || o.lost || o.duplicated || o.outOfOrder || o.stray || o.rejected)
    missed.push('exactly once, in order')
  if (timed && kind === 'burst' && o.repliesPerSecond < TARGETS.repliesPerSecond)
    missed.push(`${TARGETS.repliesPerSecond} replies/s`)
  if (timed && kind === 'paced' && !(o.overheadP99 < TARGETS.overheadP99Ms))
    missed.push(`overhead p99 < ${TARGETS.overheadP99Ms} ms`)
  return missed
}

async function main() {
  buildAppIfMissing()
  console.log(
    `${CONVERSATIONS} conversations × ${MESSAGES} messages, model ${MODEL_DELAY_MS} ms, ` +
      `REPLY_WORKER_CONCURRENCY ${process.env.REPLY_WORKER_CONCURRENCY ?? 'default'}, ${WORKERS} worker process(es) on PostgreSQL, ` +
      `burst wait ${BURST_WAIT_SECONDS} s`,
  )
  let failed = false
  for (const pass of PASSES) {
    if (pass !== 'postgres' && pass !== 'pglite') throw new Error(`Unknown pass ${pass}`)
    const outcomes = await runPass(pass)
    outcomes.forEach((outcome, i) => {
      // The speed targets are PostgreSQL's (the production database); on PGlite only exactly-once and order.
      const missed = report(outcome, PHASES[i], pass === 'postgres')
      if (missed.length > 0) {
        failed = true
        console.log(`  target missed: ${missed.join(', ')}`)
      }
    })
  }
  process.exit(failed ? 1 : 0)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
