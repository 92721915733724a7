import { sql } from 'drizzle-orm'
import type { DatabaseHandle } from '~/db/client.server'

export type Health = { status: 'ok'; database: DatabaseHandle['driver'] }

/** `/healthz`: the database answers a query. A database that does not throws the driver's error. */
export async function checkHealth(database: Pick<DatabaseHandle, 'db' | 'driver'>): Promise<Health> {
  await database.db.execute(sql`select 1`)
  return { status: 'ok', database: database.driver }
}
