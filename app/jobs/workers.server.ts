import type { PgBoss } from 'pg-boss'
import { startReplyWorker, type ReplyWorkerDeps } from './reply.server'
import { startConversationResumeWorker } from './conversation-resume.server'
import { startMediaPurgeWorker, startSessionPurgeWorker } from './session-purge.server'
import { startAnalyticsRollupWorker } from './analytics-rollup.server'
import { startKnowledgeWorker } from './knowledge.server'
import type { KnowledgeProcessDeps } from '~/services/knowledge/process-source.server'
import type { HealthCheckDeps } from '~/services/channels/health-check.server'
import { startChannelHealthWorker } from './channel-health.server'

/**
 * Every job worker of a process that works the queues: the reply pipeline, the session purge, the hand-back, the
 * knowledge base's processing, the dashboard's rollup.
 */
export async function startJobWorkers(
  boss: PgBoss,
  deps: ReplyWorkerDeps & {
    web: KnowledgeProcessDeps['web']
    /** The health check's platform clients (the reply worker's hold only the sends). */
    health: Pick<HealthCheckDeps, 'telegram' | 'graph' | 'meta'>
  },
  options: { concurrency?: number } = {},
): Promise<void> {
  await startReplyWorker(boss, deps, options)
  await startSessionPurgeWorker(boss, {
    db: deps.db,
    logger: deps.logger.child({ component: 'session-purge' }),
  })
  await startMediaPurgeWorker(boss, { db: deps.db, logger: deps.logger.child({ component: 'media-purge' }) })
  await startKnowledgeWorker(boss, {
    db: deps.db,
    logger: deps.logger.child({ component: 'knowledge' }),
    web: deps.web,
    embeddings: deps.embeddings,
  })
  await startConversationResumeWorker(boss, {
    db: deps.db,
    logger: deps.logger.child({ component: 'conversation-resume' }),
  })
  await startChannelHealthWorker(boss, {
    db: deps.db,
    logger: deps.logger.child({ component: 'channel-health' }),
    ...deps.health,
    encryptionKey: deps.encryptionKey,
  })
  await startAnalyticsRollupWorker(boss, {
    db: deps.db,
    logger: deps.logger.child({ component: 'analytics-rollup' }),
  })
}
