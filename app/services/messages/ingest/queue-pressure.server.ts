import { getMetrics, type WebhookPlatform } from '~/utils/metrics.server'
import type { Logger } from '~/utils/logger.server'

/**
 * Back-pressure on the reply queue (docs/decisions/019). Receivers never refuse or drop a message because the
 * queue is deep: a platform that gets no 200 delivers again, which only adds load. So above the bound they
 * still store, enqueue and acknowledge, and what changes is what operators see: the over-the-bound gauge, a
 * counter of the acknowledgements given meanwhile, and a warning in the log at most every `warnEveryMs`.
 *
 * The depth is a COUNT over pg-boss's job table: never read per request, but at most once per `refreshMs` in the
 * background (the request uses the last reading), and at every scrape of /metrics.
 */
export type ReplyQueuePressure = {
  highWater: number
  /** The last reading, undefined before the first one. */
  lastDepth(): number | undefined
  /** A fresh reading; concurrent callers share one query. */
  read(): Promise<number>
  /** A delivery was stored and acknowledged. Returns whether the queue was over the bound (as last read). */
  acknowledged(platform: WebhookPlatform): boolean
}

export function createReplyQueuePressure({
  readDepth,
  highWater,
  logger,
  refreshMs = 1000,
  warnEveryMs = 30_000,
  now = Date.now,
}: {
  readDepth: () => Promise<number>
  highWater: number
  logger: Logger
  refreshMs?: number
  warnEveryMs?: number
  now?: () => number
}): ReplyQueuePressure {
  let depth: number | undefined
  let readAt = -Infinity
  let inFlight: Promise<number> | undefined
  let warnedAt = -Infinity
  let overSinceWarning = 0

  function read(): Promise<number> {
    inFlight ??= readDepth()
      .then((value) => {
        depth = value
        readAt = now()
        return value
      })
      .finally(() => {
        inFlight = undefined
      })
    return inFlight
  }

  return {
    highWater,
    lastDepth: () => depth,
    read,
    acknowledged(platform) {
      if (!inFlight && now() - readAt >= refreshMs) {
        read().catch((error: unknown) => logger.warn('could not read the reply queue depth', { error }))
      }
      if (depth === undefined || depth <= highWater) return false
      getMetrics().ackedOverHighWater.inc({ platform })
      overSinceWarning += 1
      if (now() - warnedAt >= warnEveryMs) {
        logger.warn(
          'reply queue over its high-water mark: messages are stored and acknowledged, replies lag',
          {
            depth,
            highWater,
            acknowledgedOverHighWater: overSinceWarning,
          },
        )
        warnedAt = now()
        overSinceWarning = 0
      }
      return true
    },
  }
}
