import { describe, expect, it } from 'vitest'
import { createRateLimiter, createSignInGuard } from '~/http/rate-limit.server'

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

describe('createSignInGuard', () => {
  const owner = { ip: '198.51.100.7', account: 'owner@example.com' }
  const attacker = { ip: '203.0.113.9', account: 'owner@example.com' }

  it('backs an address off after 5 wrong passwords: 1 s, then doubling', () => {
    const guard = createSignInGuard()
    let now = 0
    for (let i = 0; i < 5; i++) {
      expect(guard.consume(attacker, now).allowed).toBe(true)
      guard.failed(attacker, now)
    }
    expect(guard.consume(attacker, now)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    now += 1000
    expect(guard.consume(attacker, now).allowed).toBe(true)
    guard.failed(attacker, now)
    expect(guard.consume(attacker, now)).toEqual({ allowed: false, retryAfterSeconds: 2 })
    for (let i = 0; i < 10; i++) {
      now += 15 * 60_000
      guard.failed(attacker, now - 1)
    }
    // Capped at 15 minutes, however long the guessing goes on.
    expect(guard.consume(attacker, now)).toEqual({ allowed: false, retryAfterSeconds: 900 })
  })

  it('refuses the owner from a new address at most once while the account is under attack', () => {
    const guard = createSignInGuard()
    let now = 0
    for (let i = 0; i < 40; i++) {
      guard.consume(attacker, now)
      guard.failed(attacker, now)
      now += 100
    }
    expect(guard.consume(owner, now)).toEqual({ allowed: false, retryAfterSeconds: 5 })
    now += 5_000
    // The attack goes on, and the owner's next try is let through to check the password.
    guard.failed(attacker, now)
    expect(guard.consume(owner, now).allowed).toBe(true)
    guard.succeeded(owner, now)
    now += 60_000
    guard.failed(attacker, now)
    expect(guard.consume(owner, now).allowed).toBe(true)
    // Another address new to the account still waits once.
    expect(guard.consume({ ...owner, ip: '198.51.100.8' }, now)).toEqual({
      allowed: false,
      retryAfterSeconds: 5,
    })
  })

  it('lets a forgotten password be retried after a quiet spell, and keeps the per-address limit', () => {
    const guard = createSignInGuard(createRateLimiter({ limit: 3, windowMs: 60_000 }))
    const someone = { ip: '192.0.2.1', account: 'a@example.com' }
    for (let i = 0; i < 3; i++)
      expect(guard.consume({ ...someone, account: `${i}@example.com` }, 0).allowed).toBe(true)
    expect(guard.consume(someone, 0)).toEqual({ allowed: false, retryAfterSeconds: 60 })
    for (let i = 0; i < 5; i++) guard.failed(someone, 61_000)
    expect(guard.consume(someone, 61_000).allowed).toBe(false)
    expect(guard.consume(someone, 61_000 + 16 * 60_000).allowed).toBe(true)
  })
})
