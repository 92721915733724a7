/**
 * Fixed-window request counters, per key, in this process's memory. With several web processes each keeps its
 * own counts, so the effective limit is per process (docs/decisions: rate limiting).
 */
export type RateLimiter = {
  consume(key: string, now?: number): { allowed: true } | { allowed: false; retryAfterSeconds: number }
}

export function createRateLimiter({ limit, windowMs }: { limit: number; windowMs: number }): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>()
  let lastSweep = 0
  return {
    consume(key, now = Date.now()) {
      if (now - lastSweep > windowMs) {
        for (const [k, w] of windows) if (now - w.start >= windowMs) windows.delete(k)
        lastSweep = now
      }
      let window = windows.get(key)
      if (!window || now - window.start >= windowMs) {
        window = { start: now, count: 0 }
        windows.set(key, window)
      }
      window.count += 1
      if (window.count <= limit) return { allowed: true }
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((window.start + windowMs - now) / 1000)),
      }
    },
  }
}

const MINUTE = 60_000

/** The product's limits; generous enough for people, tight enough to slow down guessing and floods. */
export const rateLimits = {
  apiPerIp: createRateLimiter({ limit: 600, windowMs: MINUTE }),
  apiPerUser: createRateLimiter({ limit: 300, windowMs: MINUTE }),
  signInPerIp: createRateLimiter({ limit: 100, windowMs: MINUTE }),
  signInPerAccount: createRateLimiter({ limit: 10, windowMs: MINUTE }),
}

/** Sign-in attempts: per address, and per account so that one address cannot guess one password fast. */
export function consumeSignInAttempt({
  ip,
  account,
}: {
  ip: string | undefined
  account: string | undefined
}) {
  for (const [limiter, key] of [
    [rateLimits.signInPerIp, ip ?? 'unknown'],
    [rateLimits.signInPerAccount, account?.toLowerCase()],
  ] as const) {
    if (!key) continue
    const verdict = limiter.consume(key)
    if (!verdict.allowed) return verdict
  }
  return { allowed: true } as const
}
