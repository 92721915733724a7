/** PostgreSQL's unique_violation (23505), as node-postgres and PGlite report it, possibly wrapped by Drizzle. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    if ('code' in e && e.code === '23505') return true
    e = 'cause' in e ? e.cause : undefined
  }
  return false
}
