/** Whether `error` (node-postgres's or PGlite's, possibly wrapped by Drizzle) carries PostgreSQL's `code`. */
function hasPostgresCode(error: unknown, code: string): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    if ('code' in e && e.code === code) return true
    e = 'cause' in e ? e.cause : undefined
  }
  return false
}

/** PostgreSQL's unique_violation (23505), as node-postgres and PGlite report it, possibly wrapped by Drizzle. */
export function isUniqueViolation(error: unknown): boolean {
  return hasPostgresCode(error, '23505')
}

/** PostgreSQL's foreign_key_violation (23503): the row referred to is gone (a channel deleted meanwhile). */
export function isForeignKeyViolation(error: unknown): boolean {
  return hasPostgresCode(error, '23503')
}
