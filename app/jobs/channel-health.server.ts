import type { PgBoss } from 'pg-boss'
import type { Database } from '~/db/client.server'
import { checkAllChannelsHealth, type HealthCheckDeps } from '~/services/channels/health-check.server'
import type { Logger } from '~/utils/logger.server'
import { CHANNEL_HEALTH_QUEUE } from './queues.server'

export type ChannelHealthJobDeps = HealthCheckDeps & { db: Database; logger: Logger }

/** One pass of the scheduled check: every channel asked at its platform, the results recorded. */
export async function handleChannelHealthJob(deps: ChannelHealthJobDeps): Promise<void> {
  const result = await checkAllChannelsHealth(deps)
  deps.logger.info('channel health checked', result)
}

/** Works the check jobs that pg-boss's scheduler sends (channelHealthCron); NOTIFY wakes it when one is sent. */
export function startChannelHealthWorker(boss: PgBoss, deps: ChannelHealthJobDeps): Promise<string> {
  return boss.work(
    CHANNEL_HEALTH_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 30, notifyPollingIntervalSeconds: 30 },
    () => handleChannelHealthJob(deps),
  )
}
