import type { z } from 'zod'
import { AppError, ERROR_STATUS } from '~/utils/errors'

/** At most this many issues are reported: a list of 100,000 bad items would otherwise answer with megabytes. */
const MAX_REPORTED_ISSUES = 20

/** zod issues → `{ field: [messages] }`, the shape forms use too; `prefix` names where the value came from. */
export function fieldErrors(error: z.ZodError, prefix: string): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const issue of error.issues.slice(0, MAX_REPORTED_ISSUES)) {
    const key = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || prefix
    ;(out[key] ??= []).push(issue.message)
  }
  return out
}

/** The value as the schema reads it, or a 400 whose message is the first issue's and whose details name each field. */
export function parseOrFail<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const errors = fieldErrors(result.error, where)
  const first = Object.values(errors)[0]?.[0]
  throw new AppError('VALIDATION_ERROR', first ?? ERROR_STATUS.VALIDATION_ERROR.message, errors)
}
