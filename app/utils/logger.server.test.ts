import { describe, expect, it } from 'vitest'
import { createLogger } from './logger.server'

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
})
