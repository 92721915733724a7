import { describe, expect, it } from 'vitest'
import { createRateLimiter } from './rate-limit.server'

describe('createRateLimiter', () => {
  it('allows the limit per window and per key, then says when to come back', () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: 60_000 })
    expect(limiter.consume('a', 0).allowed).toBe(true)
    expect(limiter.consume('a', 1_000).allowed).toBe(true)
    expect(limiter.consume('a', 15_000)).toEqual({ allowed: false, retryAfterSeconds: 45 })
    expect(limiter.consume('b', 15_000).allowed).toBe(true)
    expect(limiter.consume('a', 60_000).allowed).toBe(true)
  })
})
