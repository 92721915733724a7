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

/** Wrong passwords an address may try on one account before it backs off, and the longest back-off. */
const FREE_FAILURES = 5
const MAX_BACKOFF_MS = 15 * MINUTE
/** Wrong passwords on one account, from any address, after which an address new to it waits once. */
const ACCOUNT_PRESSURE_FAILURES = 10
const NEW_ADDRESS_WAIT_MS = 5_000
/** How long failures are remembered without a new one. */
const FAILURE_MEMORY_MS = 15 * MINUTE

type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number }
const wait = (ms: number): Verdict => ({
  allowed: false,
  retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)),
})

/**
 * Password guessing slowed down without locking the owner out (docs/decisions/028). Per address: a flat limit on
 * attempts. Per account and address: after 5 wrong passwords that address waits 1 s, then 2, 4, ... up to 15
 * minutes, between tries. Per account: while it is under attack (10 wrong passwords from anywhere), an address it
 * has not seen is asked to wait once, 5 s; after that its tries count on their own. So guessing from many
 * addresses costs each one a wait, and the owner signing in from a new address is refused at most once.
 */
export function createSignInGuard(perIp: RateLimiter = createRateLimiter({ limit: 100, windowMs: MINUTE })) {
  const pairs = new Map<string, { failures: number; lastFailure: number; waitedOnce: boolean }>()
  const accounts = new Map<string, { failures: number; lastFailure: number }>()
  let lastSweep = 0
  const sweep = (now: number) => {
    if (now - lastSweep < MINUTE) return
    lastSweep = now
    for (const map of [pairs, accounts]) {
      for (const [key, entry] of map) if (now - entry.lastFailure > FAILURE_MEMORY_MS) map.delete(key)
    }
  }
  const pairKey = (account: string, ip: string) => `${account}\u0000${ip}`
  const recent = <T extends { lastFailure: number }>(entry: T | undefined, now: number) =>
    entry && now - entry.lastFailure <= FAILURE_MEMORY_MS ? entry : undefined

  return {
    /** Whether this attempt may check a password now. */
    consume({ ip, account }: { ip: string; account: string }, now = Date.now()): Verdict {
      sweep(now)
      const perAddress = perIp.consume(ip, now)
      if (!perAddress.allowed) return perAddress
      const key = pairKey(account, ip)
      const pair = recent(pairs.get(key), now)
      if (pair && pair.failures >= FREE_FAILURES) {
        const backoff = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (pair.failures - FREE_FAILURES))
        const readyAt = pair.lastFailure + backoff
        if (now < readyAt) return wait(readyAt - now)
      }
      const underAttack = (recent(accounts.get(account), now)?.failures ?? 0) >= ACCOUNT_PRESSURE_FAILURES
      if (underAttack && !pair?.waitedOnce) {
        pairs.set(key, { failures: pair?.failures ?? 0, lastFailure: now, waitedOnce: true })
        return wait(NEW_ADDRESS_WAIT_MS)
      }
      return { allowed: true }
    },
    failed({ ip, account }: { ip: string; account: string }, now = Date.now()) {
      const key = pairKey(account, ip)
      const pair = recent(pairs.get(key), now)
      pairs.set(key, {
        failures: (pair?.failures ?? 0) + 1,
        lastFailure: now,
        waitedOnce: pair?.waitedOnce ?? false,
      })
      const total = recent(accounts.get(account), now)
      accounts.set(account, { failures: (total?.failures ?? 0) + 1, lastFailure: now })
    },
    /** The right password: this address's failures are forgotten, and it need not wait for the account again. */
    succeeded({ ip, account }: { ip: string; account: string }, now = Date.now()) {
      pairs.set(pairKey(account, ip), { failures: 0, lastFailure: now, waitedOnce: true })
    },
  }
}

export const signInGuard = createSignInGuard()

/** Sign-up and password reset: per address, and per account so that one address cannot flood one inbox. */
export function consumeAccountAttempt({ ip, account }: { ip: string; account: string | undefined }): Verdict {
  for (const [limiter, key] of [
    [rateLimits.signInPerIp, ip],
    [rateLimits.signInPerAccount, account?.toLowerCase()],
  ] as const) {
    if (!key) continue
    const verdict = limiter.consume(key)
    if (!verdict.allowed) return verdict
  }
  return { allowed: true }
}
