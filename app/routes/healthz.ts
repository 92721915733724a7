import { sql } from 'drizzle-orm'
import { getLogger } from '~/utils/logger.server'
import { getRuntime } from '~/runtime/runtime.server'

export async function loader() {
  try {
    const { database } = await getRuntime()
    await database.db.execute(sql`select 1`)
    return Response.json(
      { status: 'ok', database: database.driver },
      { headers: { 'Cache-Control': 'no-store' } },
    )
  } catch (error) {
    getLogger().error('health check failed', { error })
    return Response.json({ status: 'error' }, { status: 503, headers: { 'Cache-Control': 'no-store' } })
  }
}
