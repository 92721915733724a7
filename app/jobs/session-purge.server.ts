import type { PgBoss } from 'pg-boss'
import type { Database } from '~/db/client.server'
import { deleteExpiredSessions } from '~/services/auth/sessions.server'
import { deleteExpiredMedia } from '~/services/conversations/media-retention.server'
import type { Logger } from '~/utils/logger.server'
import { MEDIA_PURGE_QUEUE, SESSION_PURGE_QUEUE } from './queues.server'

export type SessionPurgeDeps = { db: Database; logger: Logger }

/** One purge: the sessions expired by now are deleted. A failure is thrown for pg-boss to retry. */
export async function handleSessionPurgeJob(deps: SessionPurgeDeps): Promise<void> {
  const deleted = await deleteExpiredSessions({ db: deps.db })
  deps.logger.info('expired sessions purged', { deleted })
}

/** Works the purge jobs that pg-boss's scheduler sends (SESSION_PURGE_CRON); NOTIFY wakes it when one is sent. */
export function startSessionPurgeWorker(boss: PgBoss, deps: SessionPurgeDeps): Promise<string> {
  return boss.work(
    SESSION_PURGE_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 30, notifyPollingIntervalSeconds: 30 },
    () => handleSessionPurgeJob(deps),
  )
}

/** One media purge: customers' files past their organization's retention period (ADR 074). Thrown: retried. */
export async function handleMediaPurgeJob(deps: SessionPurgeDeps): Promise<void> {
  const deleted = await deleteExpiredMedia(deps.db)
  deps.logger.info('expired customer files purged', { deleted })
}

/** Works the daily media purge (MEDIA_PURGE_CRON), as the session purge is worked. */
export function startMediaPurgeWorker(boss: PgBoss, deps: SessionPurgeDeps): Promise<string> {
  return boss.work(
    MEDIA_PURGE_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 30, notifyPollingIntervalSeconds: 30 },
    () => handleMediaPurgeJob(deps),
  )
}
