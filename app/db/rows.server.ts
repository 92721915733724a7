/**
 * The rows of a raw `execute`: node-postgres answers a QueryResult, PGlite its Results, some drivers an array.
 * The caller names the row shape its SQL returns.
 */
export function rowsOf<Row = Record<string, unknown>>(result: unknown): Row[] {
  if (Array.isArray(result)) return result as Row[]
  if (result && typeof result === 'object' && 'rows' in result && Array.isArray(result.rows)) {
    return result.rows as Row[]
  }
  throw new Error('The database driver answered in an unknown shape')
}
