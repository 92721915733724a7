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

/**
 * PostgreSQL refused a value as input: invalid_text_representation (22P02, a malformed uuid), character_not_in_repertoire
 * (22021, U+0000 in text) or string_data_right_truncation (22001, too long for its column). Input the edge should have
 * refused: the API answers it as a 400, not a 500.
 */
export function isInvalidInput(error: unknown): boolean {
  return ['22P02', '22021', '22001'].some((code) => hasPostgresCode(error, code))
}
