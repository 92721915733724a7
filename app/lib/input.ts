import { z } from 'zod'

/** Client-safe rules for what any text or id field may hold, shared by forms, the API and the services. */

/** PostgreSQL refuses U+0000 in text and jsonb: such input is refused at the edge, never sent to a query. */
export const NUL_MESSAGE = 'Text must not contain NUL characters'
export const INVALID_ID_MESSAGE = 'Invalid ID'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Our rows' ids are UUIDs: anything else names no row, and is refused before it reaches a query. */
export const isUuid = (value: string) => UUID.test(value)
export const hasNoNul = (value: string) => !value.includes('\u0000')

/** An id of one of our rows, as a path parameter or a field. */
export const idSchema = z.string({ error: INVALID_ID_MESSAGE }).regex(UUID, INVALID_ID_MESSAGE)

/** The path of the first string inside `value` (an object, array or string) that holds a NUL character. */
export function findNul(value: unknown, path: (string | number)[] = []): (string | number)[] | undefined {
  if (typeof value === 'string') return hasNoNul(value) ? undefined : path
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNul(item, [...path, index])
      if (found) return found
    }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = findNul(key, [...path, key]) ?? findNul(item, [...path, key])
      if (found) return found
    }
  }
  return undefined
}
