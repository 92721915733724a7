import { z } from 'zod'

/** Client-safe rules for what any text or id field may hold, shared by forms, the API and the services. */

/** PostgreSQL refuses U+0000 in text and jsonb: such input is refused at the edge, never sent to a query. */
export const NUL_MESSAGE = 'Text must not contain NUL characters'
export const INVALID_ID_MESSAGE = 'Invalid ID'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Our rows' ids are UUIDs: anything else names no row, and is refused before it reaches a query. */
export const isUuid = (value: string) => UUID.test(value)
export const hasNoNul = (value: string) => !value.includes('\u0000')

/**
 * A type error's text: `required` when the value is not there (a key left out of a body, or null), `otherwise`
 * when it is there but of the wrong type; never zod's "Invalid input: expected string, received undefined".
 */
export const requiredOr =
  (required: string, otherwise = required) =>
  (issue: { input?: unknown }) =>
    issue.input == null ? required : otherwise

/** An id of one of our rows, as a path parameter or a field. */
export const idSchema = z.string({ error: INVALID_ID_MESSAGE }).regex(UUID, INVALID_ID_MESSAGE)

/** An id a body must carry: a missing one is named ("Channel ID is required"). */
export const requiredIdSchema = (label: string) =>
  z.string({ error: requiredOr(`${label} is required`, INVALID_ID_MESSAGE) }).regex(UUID, INVALID_ID_MESSAGE)

/** How deep a request's JSON may nest: no form or body of ours goes past a few levels. */
export const MAX_INPUT_DEPTH = 32
export const TOO_DEEP_MESSAGE = 'The request is nested too deeply'

/**
 * The path of the first string inside `value` (an object, array or string) that holds a NUL character, or
 * `'too-deep'` when it nests past MAX_INPUT_DEPTH (which would exhaust the stack of whatever reads it next).
 */
export function findNul(
  value: unknown,
  path: (string | number)[] = [],
): (string | number)[] | 'too-deep' | undefined {
  if (typeof value === 'string') return hasNoNul(value) ? undefined : path
  if (!value || typeof value !== 'object') return undefined
  if (path.length >= MAX_INPUT_DEPTH) return 'too-deep'
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? [...value.entries()]
    : Object.entries(value)
  for (const [key, item] of entries) {
    if (typeof key === 'string' && !hasNoNul(key)) return [...path, key]
    const found = findNul(item, [...path, key])
    if (found) return found
  }
  return undefined
}
