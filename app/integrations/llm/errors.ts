import { APICallError, InvalidArgumentError, InvalidPromptError } from 'ai'

export type ModelErrorKind =
  | 'not-configured'
  | 'auth'
  | 'rate-limited'
  | 'server'
  | 'timeout'
  | 'network'
  | 'bad-request'
  | 'unknown'

/**
 * A failed model call, classified so that callers can decide whether to retry (`retryable`, `retryAfterMs`)
 * and what to tell the user. The message never contains an API key.
 */
export class ModelError extends Error {
  readonly kind: ModelErrorKind
  readonly retryable: boolean
  readonly status?: number
  readonly retryAfterMs?: number

  constructor(
    kind: ModelErrorKind,
    message: string,
    options: { retryable?: boolean; status?: number; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'ModelError'
    this.kind = kind
    this.retryable = options.retryable ?? false
    this.status = options.status
    this.retryAfterMs = options.retryAfterMs
  }
}

export type ErrorContext = {
  /** Host of the provider's base URL, named when it cannot be reached. */
  host: string
  /** The environment variable that holds the key, named when the provider rejects it. */
  keyVariable: string
  timeoutMs: number
  /** Whether our own timeout fired (as opposed to any other failure). */
  timedOut: boolean
  /** Values that must never appear in a message (API keys). */
  secrets: string[]
}

/** `retry-after-ms` (OpenAI) or `retry-after` in seconds or as an HTTP date. */
function retryAfterMs(headers: Record<string, string> | undefined): number | undefined {
  const milliseconds = Number.parseFloat(headers?.['retry-after-ms'] ?? '')
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds
  const value = headers?.['retry-after']
  if (!value) return undefined
  const seconds = Number.parseFloat(value)
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`

function isFetchFailure(error: unknown): boolean {
  return error instanceof TypeError && /fetch failed|failed to fetch/i.test(error.message)
}

function classify(error: unknown, context: ErrorContext): ModelError {
  if (context.timedOut) {
    return new ModelError('timeout', `The model did not answer within ${seconds(context.timeoutMs)}.`, {
      retryable: true,
    })
  }
  if (InvalidPromptError.isInstance(error) || InvalidArgumentError.isInstance(error)) {
    return new ModelError('bad-request', `The model request is invalid: ${error.message}`)
  }
  const isApiError = APICallError.isInstance(error)
  const status = isApiError ? error.statusCode : undefined
  if ((isApiError && status === undefined) || isFetchFailure(error)) {
    const cause = error instanceof Error ? error.cause : undefined
    const reason = NETWORK_REASONS[errorCode(cause) ?? ''] ?? 'network error'
    return new ModelError('network', `Could not reach the model provider at ${context.host} (${reason}).`, {
      retryable: true,
    })
  }
  if (!isApiError || status === undefined) {
    const detail = error instanceof Error ? error.message : String(error)
    return new ModelError('unknown', `The model call failed: ${detail}`, { cause: error })
  }
  if (status === 401 || status === 403) {
    return new ModelError(
      'auth',
      `The model provider rejected the API key (HTTP ${status}). Check ${context.keyVariable}.`,
      { status },
    )
  }
  if (status === 429) {
    const after = retryAfterMs(error.responseHeaders)
    const hint = after === undefined ? '' : ` Retry after ${seconds(after)}.`
    return new ModelError('rate-limited', `The model provider is rate limiting requests (HTTP 429).${hint}`, {
      status,
      retryable: true,
      retryAfterMs: after,
    })
  }
  if (status >= 500) {
    return new ModelError('server', `The model provider failed (HTTP ${status}): ${error.message}`, {
      status,
      retryable: true,
    })
  }
  if (status >= 400) {
    // 408 and 409 are worth another try; the AI SDK already knows which are.
    return new ModelError(
      'bad-request',
      `The model provider refused the request (HTTP ${status}): ${error.message}`,
      {
        status,
        retryable: error.isRetryable,
      },
    )
  }
  return new ModelError(
    'unknown',
    `The model provider sent an answer that could not be read (HTTP ${status}).`,
    {
      status,
      cause: error,
    },
  )
}

function redact(text: string, secrets: string[]): string {
  return secrets.filter(Boolean).reduce((result, secret) => result.replaceAll(secret, '[redacted]'), text)
}

/** Maps whatever the AI SDK threw to a ModelError, with any secret scrubbed from its message. */
export function toModelError(error: unknown, context: ErrorContext): ModelError {
  const classified = classify(error, context)
  const message = redact(classified.message, context.secrets)
  if (message === classified.message) return classified
  return new ModelError(classified.kind, message, {
    retryable: classified.retryable,
    status: classified.status,
    retryAfterMs: classified.retryAfterMs,
  })
}
