import type { PgBoss } from 'pg-boss'
import type { Database } from '~/db/client.server'
import { rollUpAnalytics } from '~/services/analytics/rollup.server'
import type { Logger } from '~/utils/logger.server'
import { ANALYTICS_ROLLUP_QUEUE } from './queues.server'

export type AnalyticsRollupDeps = { db: Database; logger: Logger; now?: () => Date }

/** One run of the dashboard's rollup (ANALYTICS_ROLLUP_CRON). A failure is thrown for pg-boss to retry. */
export async function handleAnalyticsRollupJob(deps: AnalyticsRollupDeps): Promise<void> {
  const startedAt = performance.now()
  const { organizations } = await rollUpAnalytics(deps.db, { now: deps.now?.() })
  deps.logger.info('analytics rolled up', { organizations, ms: Math.round(performance.now() - startedAt) })
}

/** Works the rollup jobs that pg-boss's scheduler sends; NOTIFY wakes it when one is sent. */
export function startAnalyticsRollupWorker(boss: PgBoss, deps: AnalyticsRollupDeps): Promise<string> {
  return boss.work(
    ANALYTICS_ROLLUP_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 30, notifyPollingIntervalSeconds: 30 },
    () => handleAnalyticsRollupJob(deps),
  )
}
