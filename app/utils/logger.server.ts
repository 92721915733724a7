import type { LogLevel } from './env.server'

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

/** Keys whose values never reach a log line, at any depth. */
const SECRET_KEY =
  /^(.*token|.*password|.*secret|authorization|cookie|set-cookie|.*api[-_]?key|.*credentials?|code|pin|hub\.verify_token)$/i
const REDACTED = '[redacted]'
const MAX_DEPTH = 6

function isLogLevel(value: string | undefined): value is LogLevel {
  return value !== undefined && value in LEVEL_ORDER
}

export type LogFields = Record<string, unknown>

function redact(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return '[deep]'
  if (value instanceof Error) {
    return { name: value.name, message: value.message, stack: value.stack }
  }
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

/** One JSON object a line; secrets are redacted by key name before anything is written. */
export function createLogger(options: { level?: LogLevel; base?: LogFields; sink?: Sink } = {}): Logger {
  const level = options.level ?? 'info'
  const base = options.base ?? {}
  const sink: Sink = options.sink ?? ((line) => process.stdout.write(line + '\n'))
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

/** The process-wide logger. */
export function getLogger(): Logger {
  globalThis.__replypilotLogger ??= createLogger({
    level: isLogLevel(process.env.LOG_LEVEL) ? process.env.LOG_LEVEL : 'info',
  })
  return globalThis.__replypilotLogger
}
