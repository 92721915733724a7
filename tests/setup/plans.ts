import { sql } from 'drizzle-orm'
import type { PgDialect } from 'drizzle-orm/pg-core'
import type { Database } from '~/db/client.server'
import { rowsOf } from '~/db/rows.server'

/**
 * The plan PostgreSQL keeps for a prepared statement once it stops planning per call (the generic plan, made
 * whatever the parameters' values), as EXPLAIN prints it. `statement` is a drizzle query or a query builder;
 * its parameters are given as SQL literals, in order.
 */
export async function genericPlan(
  db: Database,
  statement: Parameters<PgDialect['sqlToQuery']>[0] | { toSQL(): { sql: string } },
  literals: string[],
): Promise<string> {
  const text =
    'toSQL' in statement
      ? statement.toSQL().sql
      : (db as unknown as { dialect: PgDialect }).dialect.sqlToQuery(statement).sql
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_generic_plan`)
    await tx.execute(sql.raw(`prepare plan_under_test as ${text}`))
    const rows = rowsOf<{ 'QUERY PLAN': string }>(
      await tx.execute(sql.raw(`explain execute plan_under_test(${literals.join(', ')})`)),
    )
    await tx.execute(sql`deallocate plan_under_test`)
    return rows.map((row) => row['QUERY PLAN']).join('\n')
  })
}

/** The indexes a plan reads on a table, in plan order. */
export const indexesReadOn = (plan: string, table: string) =>
  [...plan.matchAll(new RegExp(`Scan (?:Backward )?using (\\w+) on ${table}\\b`, 'g'))].map(
    (match) => match[1],
  )
