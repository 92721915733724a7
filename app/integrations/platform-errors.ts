/**
 * The platform service codes of the spec (section 8, "Platform service codes by HTTP status") and its retry policy
 * (section 9, "Platform retries"), shared by the Telegram and Meta integrations. Integrations turn whatever their
 * client library throws into a PlatformError; the reply pipeline decides with `retryable` and `retryAfterMs`.
 */

export type Platform = 'telegram' | 'facebook' | 'whatsapp'

export type PlatformErrorCode =
  | 'VALIDATION_ERROR'
  | 'AUTH_TOKEN_INVALID'
  | 'AUTH_TOKEN_MISSING'
  | 'INVALID_PLATFORM'
  | 'TIMEOUT_ERROR'
  | 'RATE_LIMITED'
  | 'SERVER_ERROR'
  | 'SERVICE_UNAVAILABLE'
  | 'NETWORK_ERROR'
  | 'UNKNOWN_ERROR'

/** Spec section 9: platform request timeout 30 s; up to 3 retries from 1 s, doubling, capped at 10 s. */
export const PLATFORM_REQUEST_TIMEOUT_MS = 30_000
export const PLATFORM_MAX_RETRIES = 3
export const PLATFORM_RETRY_BASE_DELAY_MS = 1000
export const PLATFORM_RETRY_MAX_DELAY_MS = 10_000

/** The spec's message per code, word for word. UNKNOWN_ERROR has none: it carries the server's text. */
export const PLATFORM_ERROR_TEXTS: Record<Exclude<PlatformErrorCode, 'UNKNOWN_ERROR'>, string> = {
  VALIDATION_ERROR: 'Invalid request data',
  AUTH_TOKEN_INVALID: 'Authentication token is invalid or expired',
  AUTH_TOKEN_MISSING: 'Authentication token is missing',
  INVALID_PLATFORM: 'Platform not found',
  TIMEOUT_ERROR: 'Request timed out',
  RATE_LIMITED: 'Rate limit exceeded',
  SERVER_ERROR: 'Internal server error',
  SERVICE_UNAVAILABLE: 'Service temporarily unavailable',
  NETWORK_ERROR: 'Network error - unable to reach server',
}

const RETRYABLE_CODES: ReadonlySet<PlatformErrorCode> = new Set([
  'TIMEOUT_ERROR',
  'RATE_LIMITED',
  'SERVER_ERROR',
  'SERVICE_UNAVAILABLE',
  'NETWORK_ERROR',
])

export const isRetryableCode = (code: PlatformErrorCode) => RETRYABLE_CODES.has(code)

export type PlatformErrorOptions = {
  /** The code's spec message when absent (and for UNKNOWN_ERROR, "Unknown error"). */
  message?: string
  status?: number
  /** Whether the code is retryable per the spec when absent. */
  retryable?: boolean
  /** How long the platform asked us to wait (Telegram's `retry_after`). */
  retryAfterMs?: number
}

/** A failed platform call. Its fields and message never hold a token: integrations build it from scratch. */
export class PlatformError extends Error {
  readonly platform: Platform
  readonly code: PlatformErrorCode
  readonly status?: number
  readonly retryable: boolean
  readonly retryAfterMs?: number

  constructor(platform: Platform, code: PlatformErrorCode, options: PlatformErrorOptions = {}) {
    super(options.message ?? (code === 'UNKNOWN_ERROR' ? 'Unknown error' : PLATFORM_ERROR_TEXTS[code]))
    this.name = 'PlatformError'
    this.platform = platform
    this.code = code
    this.status = options.status
    this.retryable = options.retryable ?? isRetryableCode(code)
    this.retryAfterMs = options.retryAfterMs
  }
}

/** The spec's code for an HTTP status; anything not in its table is UNKNOWN_ERROR. */
export function codeForStatus(status: number): PlatformErrorCode {
  if (status === 400) return 'VALIDATION_ERROR'
  if (status === 401) return 'AUTH_TOKEN_INVALID'
  if (status === 403) return 'AUTH_TOKEN_MISSING'
  if (status === 404) return 'INVALID_PLATFORM'
  if (status === 408) return 'TIMEOUT_ERROR'
  if (status === 429) return 'RATE_LIMITED'
  if (status === 500) return 'SERVER_ERROR'
  if (status === 502 || status === 503 || status === 504) return 'SERVICE_UNAVAILABLE'
  return 'UNKNOWN_ERROR'
}

/**
 * The spec's error for an HTTP status. `message` is the server's text: only 400 and statuses outside the table
 * show it (the others have a fixed message); without it a 400 says "Invalid request data" and an unknown status
 * "Request failed with status code N".
 */
export function platformErrorFromStatus(
  platform: Platform,
  status: number,
  message?: string,
  retryAfterMs?: number,
): PlatformError {
  const code = codeForStatus(status)
  const text =
    code === 'VALIDATION_ERROR' || code === 'UNKNOWN_ERROR'
      ? message || (code === 'UNKNOWN_ERROR' ? `Request failed with status code ${status}` : undefined)
      : undefined
  return new PlatformError(platform, code, { message: text, status, retryAfterMs })
}

export type PlatformRetryOptions = {
  retries?: number
  baseDelayMs?: number
  maxDelayMs?: number
  /**
   * A platform's own wait longer than this is not slept through: the error is thrown at once so that the caller
   * (a queued job) can come back later instead of holding a worker. No limit by default.
   */
  maxRetryAfterMs?: number
  /** Injectable for tests. */
  sleep?: (ms: number) => Promise<void>
  /** Called before each wait, for logs and metrics. */
  onRetry?: (retry: { error: PlatformError; attempt: number; delayMs: number }) => void
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** The wait before retry number `retry` (1-based): the platform's own `retryAfterMs`, else the backoff. */
export function platformRetryDelayMs(
  retry: number,
  error: PlatformError,
  { baseDelayMs = PLATFORM_RETRY_BASE_DELAY_MS, maxDelayMs = PLATFORM_RETRY_MAX_DELAY_MS } = {},
): number {
  return error.retryAfterMs ?? Math.min(baseDelayMs * 2 ** (retry - 1), maxDelayMs)
}

/**
 * Runs `fn`, retrying retryable PlatformErrors up to `retries` times (so at most retries + 1 attempts) with the
 * spec's backoff, or the platform's `retryAfterMs` when it gave one. Anything else is rethrown at once. `fn`
 * receives the attempt number, from 1; `onRetry` gets the number of the attempt that failed.
 */
export async function withPlatformRetries<T>(
  fn: (attempt: number) => Promise<T>,
  options: PlatformRetryOptions = {},
): Promise<T> {
  const { retries = PLATFORM_MAX_RETRIES, maxRetryAfterMs = Infinity, sleep = realSleep, onRetry } = options
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt)
    } catch (error) {
      if (!(error instanceof PlatformError) || !error.retryable || attempt > retries) throw error
      if (error.retryAfterMs !== undefined && error.retryAfterMs > maxRetryAfterMs) throw error
      const delayMs = platformRetryDelayMs(attempt, error, options)
      onRetry?.({ error, attempt, delayMs })
      await sleep(delayMs)
    }
  }
}
