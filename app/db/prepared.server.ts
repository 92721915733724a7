import type { SQL } from 'drizzle-orm'
import type { PgDialect, PgSession } from 'drizzle-orm/pg-core'
import type { Database } from './client.server'

/**
 * A raw SQL statement prepared under a name, then run with values for its `sql.placeholder()`s: on PostgreSQL it
 * is parsed and planned once per connection instead of at every call. drizzle prepares only its query builders
 * (`.prepare(name)`); this makes the same session call they make (drizzle is pinned to one version, ADR 012).
 * The name must always go with the same text.
 */
export function prepareSql(db: Database, name: string, query: SQL) {
  const { dialect, session } = db as unknown as { dialect: PgDialect; session: PgSession }
  const prepared = session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false)
  return (values: Record<string, unknown>): Promise<unknown> => prepared.execute(values)
}
