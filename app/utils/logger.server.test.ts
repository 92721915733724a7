import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '~/db/client.server'
import { users } from '~/db/schema'
import { openTestDatabase } from '../../tests/setup/database'
import { createBatchedSink, createLogger } from '~/utils/logger.server'

function capture(level: 'debug' | 'info' = 'info') {
  const lines: string[] = []
  const logger = createLogger({ level, sink: (line) => lines.push(line) })
  return { logger, records: () => lines.map((l) => JSON.parse(l)) }
}

describe('logger', () => {
  it('writes one JSON object a line with level, time and fields', () => {
    const { logger, records } = capture()
    logger.child({ requestId: 'r-1' }).info('request', { status: 200 })
    const [record] = records()
    expect(record).toMatchObject({ level: 'info', msg: 'request', requestId: 'r-1', status: 200 })
    expect(new Date(record.time).getTime()).not.toBeNaN()
  })

  it('never writes a token, password, secret, cookie or authorization value, at any depth', () => {
    const { logger, records } = capture()
    logger.info('x', {
      password: 'hunter2',
      body: { accessToken: 'tok', nested: [{ botToken: '1:abc', idToken: 'id' }] },
      headers: { authorization: 'Bearer abc', cookie: '__session=abc' },
      SESSION_SECRET: 'shh',
      statusCode: 401,
      tokensUsed: 12,
    })
    const text = JSON.stringify(records())
    for (const secret of ['hunter2', 'tok"', '1:abc', 'Bearer abc', '__session=abc', 'shh']) {
      expect(text).not.toContain(secret)
    }
    expect(records()[0]).toMatchObject({ statusCode: 401, tokensUsed: 12 })
  })

  it('drops lines below its level and serialises errors', () => {
    const { logger, records } = capture('info')
    logger.debug('hidden')
    logger.error('boom', { error: new Error('bad thing') })
    expect(records()).toHaveLength(1)
    expect(records()[0].error.message).toBe('bad thing')
  })

  it('writes lines to standard output in batches, in order, within 20 ms, and at once past 64 KB', async () => {
    const writes: string[] = []
    const sink = createBatchedSink((text) => writes.push(text))
    sink('{"n":1}')
    sink('{"n":2}')
    expect(writes).toEqual([])
    await sleep(60)
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n'])

    const big = 'x'.repeat(40 * 1024)
    sink(big)
    sink(big)
    expect(writes).toHaveLength(2) // the second line took it past 64 KB: written without waiting
    expect(writes[1]).toBe(`${big}\n${big}\n`)

    sink('{"n":3}')
    sink.flush()
    expect(writes.at(-1)).toBe('{"n":3}\n')
  })
})

describe('logger and failed queries', () => {
  let handle: DatabaseHandle
  beforeAll(async () => {
    handle = await openTestDatabase()
  })
  afterAll(() => handle.close())

  it("logs a failed query's code, constraint and table, never its parameters or the values in its detail", async () => {
    const marker = `secret-session-${randomUUID()}`
    const { logger, records } = capture()
    const [user] = await handle.db
      .insert(users)
      .values({ firebaseUid: marker, email: `${marker}@example.com` })
      .returning()
    // A unique violation: PostgreSQL's detail names the duplicated value.
    const duplicate = await handle.db
      .insert(users)
      .values({ firebaseUid: marker, email: `${marker}@example.com` })
      .catch((error: unknown) => error)
    // A NUL character: PostgreSQL's message quotes nothing, but Drizzle's names every parameter.
    const nul = await handle.db
      .update(users)
      .set({ displayName: `${marker}\u0000` })
      .where(eq(users.id, user.id))
      .catch((error: unknown) => error)
    logger.error('query failed', { error: duplicate })
    logger.error('query failed', { error: nul })

    const text = JSON.stringify(records())
    expect(text).not.toContain(marker)
    const [first, second] = records()
    expect(first.error).toMatchObject({ message: 'Database query failed', code: '23505', table: 'users' })
    expect(first.error.constraint).toEqual(expect.stringContaining('users'))
    expect(second.error).toMatchObject({ message: 'Database query failed', code: '22021' })
    expect(first.error.stack).toContain('at ')
  })
})
