import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { endpoints } from '.'

/** zod's own texts, which a client should never be shown for a field it left out. */
const ZOD_DEFAULT = /^Invalid (input|option)|^Too (small|big)/

describe('the API contract', () => {
  it('every body names a missing required field in words, never with zod’s default text', () => {
    const issues = Object.entries(endpoints).flatMap(([name, endpoint]) => {
      const body: z.ZodType | undefined = 'body' in endpoint ? endpoint.body : undefined
      return (body?.safeParse({}).error?.issues ?? []).map(({ path, message }) => ({
        where: [name, ...path].join('.'),
        message,
      }))
    })
    expect(issues.map(({ where }) => where)).toContain('createAgent.name')
    expect(issues.filter(({ message }) => ZOD_DEFAULT.test(message))).toEqual([])
  })

  it('has one operation id per endpoint', () => {
    const ids = Object.values(endpoints).map((endpoint) => endpoint.operationId)
    expect(ids).toEqual(Object.keys(endpoints))
  })
})
