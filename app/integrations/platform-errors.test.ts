import { describe, expect, it, vi } from 'vitest'
import {
  PlatformError,
  platformErrorFromStatus,
  platformRetryDelayMs,
  withPlatformRetries,
  type PlatformErrorCode,
} from './platform-errors'

describe('platform service codes by HTTP status (spec section 8)', () => {
  const table: [number, PlatformErrorCode, string, boolean][] = [
    [400, 'VALIDATION_ERROR', 'Invalid request data', false],
    [401, 'AUTH_TOKEN_INVALID', 'Authentication token is invalid or expired', false],
    [403, 'AUTH_TOKEN_MISSING', 'Authentication token is missing', false],
    [404, 'INVALID_PLATFORM', 'Platform not found', false],
    [408, 'TIMEOUT_ERROR', 'Request timed out', true],
    [429, 'RATE_LIMITED', 'Rate limit exceeded', true],
    [500, 'SERVER_ERROR', 'Internal server error', true],
    [502, 'SERVICE_UNAVAILABLE', 'Service temporarily unavailable', true],
    [503, 'SERVICE_UNAVAILABLE', 'Service temporarily unavailable', true],
    [504, 'SERVICE_UNAVAILABLE', 'Service temporarily unavailable', true],
    [418, 'UNKNOWN_ERROR', 'Request failed with status code 418', false],
  ]

  it.each(table)('%i is %s, "%s", retryable %s', (status, code, message, retryable) => {
    const error = platformErrorFromStatus('facebook', status)
    expect(error).toBeInstanceOf(PlatformError)
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({
      name: 'PlatformError',
      platform: 'facebook',
      status,
      code,
      message,
      retryable,
    })
  })

  it('shows the server message for 400 and unknown statuses only', () => {
    expect(platformErrorFromStatus('telegram', 400, 'Bad Request: chat not found').message).toBe(
      'Bad Request: chat not found',
    )
    expect(platformErrorFromStatus('telegram', 409, 'Conflict: terminated').message).toBe(
      'Conflict: terminated',
    )
    expect(platformErrorFromStatus('telegram', 401, 'Unauthorized').message).toBe(
      'Authentication token is invalid or expired',
    )
    expect(platformErrorFromStatus('telegram', 429, 'Too Many Requests', 3000)).toMatchObject({
      message: 'Rate limit exceeded',
      retryAfterMs: 3000,
    })
  })

  it('says "Network error - unable to reach server" when nothing answered', () => {
    const error = new PlatformError('whatsapp', 'NETWORK_ERROR')
    expect(error).toMatchObject({ message: 'Network error - unable to reach server', retryable: true })
    expect(error.status).toBeUndefined()
  })
})

describe('withPlatformRetries (spec section 9)', () => {
  const retryable = () => platformErrorFromStatus('telegram', 503)

  /** A function that fails with `errors` in turn, then answers 'done'. */
  function failing(...errors: Error[]) {
    return vi.fn(async () => {
      const error = errors.shift()
      if (error) throw error
      return 'done'
    })
  }

  function recordingSleep() {
    const delays: number[] = []
    return { delays, sleep: async (ms: number) => void delays.push(ms) }
  }

  it('waits 1 s, 2 s, 4 s between attempts and returns the first success', async () => {
    const { delays, sleep } = recordingSleep()
    const fn = failing(retryable(), retryable(), retryable())
    await expect(withPlatformRetries(fn, { sleep })).resolves.toBe('done')
    expect(fn).toHaveBeenCalledTimes(4)
    expect(fn.mock.calls).toEqual([[1], [2], [3], [4]])
    expect(delays).toEqual([1000, 2000, 4000])
  })

  it('gives up after 3 retries (4 attempts) and throws the last error', async () => {
    const { delays, sleep } = recordingSleep()
    const last = retryable()
    const fn = failing(retryable(), retryable(), retryable(), last, retryable())
    await expect(withPlatformRetries(fn, { sleep })).rejects.toBe(last)
    expect(fn).toHaveBeenCalledTimes(4)
    expect(delays).toEqual([1000, 2000, 4000])
  })

  it('caps the backoff at 10 s', async () => {
    const { delays, sleep } = recordingSleep()
    const fn = failing(...Array.from({ length: 6 }, retryable))
    await withPlatformRetries(fn, { sleep, retries: 6 })
    expect(delays).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000])
    expect(platformRetryDelayMs(10, retryable())).toBe(10_000)
  })

  it("waits the platform's retry_after instead of the backoff", async () => {
    const { delays, sleep } = recordingSleep()
    const fn = failing(retryable(), platformErrorFromStatus('telegram', 429, undefined, 15_000))
    const onRetry = vi.fn()
    await expect(withPlatformRetries(fn, { sleep, onRetry })).resolves.toBe('done')
    expect(delays).toEqual([1000, 15_000])
    expect(onRetry).toHaveBeenLastCalledWith(expect.objectContaining({ attempt: 2, delayMs: 15_000 }))
  })

  it('does not sleep through a retry_after beyond maxRetryAfterMs', async () => {
    const { delays, sleep } = recordingSleep()
    const flood = platformErrorFromStatus('telegram', 429, undefined, 3_600_000)
    await expect(withPlatformRetries(failing(flood), { sleep, maxRetryAfterMs: 60_000 })).rejects.toBe(flood)
    expect(delays).toEqual([])
  })

  it('does not retry a non-retryable PlatformError or any other error', async () => {
    const { delays, sleep } = recordingSleep()
    const invalid = platformErrorFromStatus('telegram', 401)
    const invalidFn = failing(invalid)
    await expect(withPlatformRetries(invalidFn, { sleep })).rejects.toBe(invalid)
    expect(invalidFn).toHaveBeenCalledTimes(1)

    const bug = new TypeError('not a platform failure')
    const bugFn = failing(bug)
    await expect(withPlatformRetries(bugFn, { sleep })).rejects.toBe(bug)
    expect(bugFn).toHaveBeenCalledTimes(1)
    expect(delays).toEqual([])
  })

  it('honours custom retries and delays', async () => {
    const { delays, sleep } = recordingSleep()
    const fn = failing(retryable(), retryable())
    await expect(withPlatformRetries(fn, { sleep, retries: 1, baseDelayMs: 50 })).rejects.toBeInstanceOf(
      PlatformError,
    )
    expect(delays).toEqual([50])
  })
})
