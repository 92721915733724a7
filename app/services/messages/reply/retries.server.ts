import { setTimeout as sleepFor } from 'node:timers/promises'
import { ModelError } from '~/integrations/llm/model.server'
import {
  PlatformError,
  withPlatformRetries,
  type Platform,
  type PlatformRetryOptions,
} from '~/integrations/platform-errors'
import { PLATFORM_LABELS } from '~/lib/channels/channels'
import { MAX_SLEPT_RETRY_AFTER_MS } from '~/lib/conversations/reply-pipeline'
import type { Logger } from '~/utils/logger.server'

export type ReplyRetryOptions = {
  logger: Logger
  /** The spec's policy by default; tests shorten the backoff. A platform wait over 30 s is not slept through. */
  retry?: Omit<PlatformRetryOptions, 'onRetry'>
  /** Aborted when the job's claim is lost or the worker stops: the wait ends, and the job is retried. */
  signal?: AbortSignal
}

/** A retryable ModelError dressed as a PlatformError, so that one retry policy covers the model and the platform. */
class RetryableModelError extends PlatformError {
  constructor(
    platform: Platform,
    readonly modelError: ModelError,
  ) {
    super(platform, 'SERVER_ERROR', {
      message: modelError.message,
      retryable: true,
      retryAfterMs: modelError.retryAfterMs,
    })
  }
}

function abortableSleep(signal: AbortSignal | undefined) {
  return (ms: number) => sleepFor(ms, undefined, { signal })
}

/**
 * `fn` (a model call or a platform send, `what` in the logs) with the spec's retry policy, for the model's
 * retryable errors as for the platform's; what outlives it is thrown as it came (a ModelError stays one).
 */
export async function withReplyRetries<T>(
  options: ReplyRetryOptions,
  platform: Platform,
  what: string,
  fn: () => Promise<T>,
) {
  try {
    return await withPlatformRetries(
      async () => {
        try {
          return await fn()
        } catch (error) {
          if (error instanceof ModelError && error.retryable) throw new RetryableModelError(platform, error)
          throw error
        }
      },
      {
        maxRetryAfterMs: MAX_SLEPT_RETRY_AFTER_MS,
        sleep: abortableSleep(options.signal),
        ...options.retry,
        onRetry: ({ error, attempt, delayMs }) =>
          options.logger.info('reply: retrying', { what, attempt, delayMs, reason: error.message }),
      },
    )
  } catch (error) {
    throw error instanceof RetryableModelError ? error.modelError : error
  }
}

/** What the organization reads on a failed message: the error, and a platform's wait we did not sit out. */
export function failureReason(error: PlatformError | ModelError): string {
  if (!(error instanceof PlatformError)) return error.message
  const { retryAfterMs } = error
  if (retryAfterMs === undefined || retryAfterMs <= MAX_SLEPT_RETRY_AFTER_MS) return error.message
  const platform = PLATFORM_LABELS[error.platform]
  const limit = MAX_SLEPT_RETRY_AFTER_MS / 60_000
  return `${error.message}: ${platform} asked to wait ${Math.ceil(retryAfterMs / 1000)} s, longer than the ${limit} minutes a reply waits`
}
