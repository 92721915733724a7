import { sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { rowsOf } from '~/db/rows.server'
import { messageMedia, organizations } from '~/db/schema'

/** Files deleted a statement at a time: a short lock each, however many files a day's purge finds. */
const PURGE_BATCH = 500

/**
 * Deletes the customers' files older than their organization's retention period (docs/decisions/074); the
 * messages stay, with their transcripts. Returns how many files went.
 */
export async function deleteExpiredMedia(db: Database, now = new Date()): Promise<number> {
  let deleted = 0
  for (;;) {
    const rows = rowsOf<{ message_id: string }>(
      await db.execute(sql`
        delete from ${messageMedia} where message_id in (
          select mm.message_id from ${messageMedia} mm
          join ${organizations} o on o.id = mm.organization_id
          where mm.created_at < ${now.toISOString()}::timestamptz - make_interval(days => o.media_retention_days)
          limit ${PURGE_BATCH})
        returning message_id`),
    )
    deleted += rows.length
    if (rows.length < PURGE_BATCH) return deleted
  }
}
