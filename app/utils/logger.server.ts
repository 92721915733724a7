export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

/** Keys whose values never reach a log line, at any depth. */
const SECRET_KEY =
  /^(.*token|.*password|.*secret|authorization|cookie|set-cookie|.*api[-_]?key|.*credentials?|code|pin|hub\.verify_token)$/i
const REDACTED = '[redacted]'
const MAX_DEPTH = 6

export type LogFields = Record<string, unknown>

/** PostgreSQL's error fields that say what failed without saying with which values (node-postgres and PGlite). */
const DATABASE_ERROR_FIELDS = [
  'code',
  'severity',
  'constraint',
  'table',
  'column',
  'schema',
  'routine',
] as const

/**
 * The PostgreSQL error inside `error`, if any: Drizzle wraps it as the cause of a "Failed query: ... params: ..."
 * error, whose text and stack carry the query's parameters (user input, session ids).
 */
function databaseErrorOf(error: Error): object | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    if ('severity' in e && 'code' in e && typeof e.code === 'string') return e
    e = 'cause' in e ? e.cause : undefined
  }
  return undefined
}

/** The frames of a stack without its first line, which repeats the message. */
const framesOf = (stack: string | undefined) =>
  stack
    ?.split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .join('\n')

/**
 * An error as a log line shows it. A database error is shown by its code, constraint and table, never by its
 * text, detail or the failed query's parameters, which hold what a user typed (docs/decisions/028).
 */
function describeError(error: Error): Record<string, unknown> {
  const database = databaseErrorOf(error)
  if (!database && !error.message.startsWith('Failed query:')) {
    return { name: error.name, message: error.message, stack: error.stack }
  }
  const fields: Record<string, string> = {}
  for (const key of DATABASE_ERROR_FIELDS) {
    const value: unknown = database && Reflect.get(database, key)
    if (typeof value === 'string') fields[key] = value
  }
  return { name: error.name, message: 'Database query failed', ...fields, stack: framesOf(error.stack) }
}

function redact(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return '[deep]'
  if (value instanceof Error) return describeError(value)
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1))
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, v] of Object.entries(value)) {
      out[key] = SECRET_KEY.test(key) ? REDACTED : redact(v, depth + 1)
    }
    return out
  }
  return value
}

export type Logger = {
  debug(msg: string, fields?: LogFields): void
  info(msg: string, fields?: LogFields): void
  warn(msg: string, fields?: LogFields): void
  error(msg: string, fields?: LogFields): void
  child(fields: LogFields): Logger
}

type Sink = (line: string) => void

/** How long a line may wait to be written with the ones after it; and how much text is written at once at most. */
const FLUSH_AFTER_MS = 20
const FLUSH_AT_CHARS = 64 * 1024

/**
 * Standard output, written a batch of lines at a time: each write to a pipe wakes its reader, which on the
 * machines measured cost about as much CPU as building the line (bench:pipeline's worker profile: 4.5%, one
 * write per line). Lines wait at most 20 ms and are written in order; whatever waits is written when the
 * process exits, so only a kill -9 can lose the last 20 ms.
 */
export function createBatchedSink(
  write: (text: string) => void = (text) => process.stdout.write(text),
): Sink & {
  flush(): void
} {
  let pending: string[] = []
  let chars = 0
  let timer: NodeJS.Timeout | undefined
  const flush = () => {
    if (timer) clearTimeout(timer)
    timer = undefined
    if (pending.length === 0) return
    const text = pending.join('')
    pending = []
    chars = 0
    write(text)
  }
  process.once('exit', flush)
  const sink = (line: string) => {
    pending.push(line + '\n')
    chars += line.length + 1
    if (chars >= FLUSH_AT_CHARS) flush()
    else timer ??= setTimeout(flush, FLUSH_AFTER_MS).unref()
  }
  return Object.assign(sink, { flush })
}

let stdoutSink: ReturnType<typeof createBatchedSink> | undefined
const defaultSink: Sink = (line) => (stdoutSink ??= createBatchedSink())(line)

/** One JSON object a line; secrets are redacted by key name before anything is written. */
export function createLogger(options: { level?: LogLevel; base?: LogFields; sink?: Sink } = {}): Logger {
  const level = options.level ?? 'info'
  const base = options.base ?? {}
  const sink: Sink = options.sink ?? defaultSink
  const write = (lvl: LogLevel, msg: string, fields?: LogFields) => {
    if (LEVEL_ORDER[lvl] < LEVEL_ORDER[level]) return
    const record = { time: new Date().toISOString(), level: lvl, msg, ...base, ...fields }
    sink(JSON.stringify(redact(record)))
  }
  return {
    debug: (msg, fields) => write('debug', msg, fields),
    info: (msg, fields) => write('info', msg, fields),
    warn: (msg, fields) => write('warn', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
    child: (fields) => createLogger({ level, base: { ...base, ...fields }, sink }),
  }
}

declare global {
  // Process-wide singletons must survive the dev server re-importing modules; only `var` reaches globalThis.
  var __replypilotLogger: Logger | undefined
}

/** The process-wide logger; the runtime's first call sets the configured level (LOG_LEVEL). */
export function getLogger(level: LogLevel = 'info'): Logger {
  globalThis.__replypilotLogger ??= createLogger({ level })
  return globalThis.__replypilotLogger
}
