import type { PgBoss } from 'pg-boss'
import { startReplyWorker, type ReplyWorkerDeps } from './reply.server'
import { startConversationResumeWorker } from './conversation-resume.server'
import { startSessionPurgeWorker } from './session-purge.server'
import { startAnalyticsRollupWorker } from './analytics-rollup.server'
import { startKnowledgeWorker } from './knowledge.server'
import type { KnowledgeProcessDeps } from '~/services/knowledge/process-source.server'

/**
 * Every job worker of a process that works the queues: the reply pipeline, the session purge, the hand-back, the
 * knowledge base's processing, the dashboard's rollup.
 */
export async function startJobWorkers(
  boss: PgBoss,
  deps: ReplyWorkerDeps & { web: KnowledgeProcessDeps['web'] },
  options: { concurrency?: number } = {},
): Promise<void> {
  await startReplyWorker(boss, deps, options)
  await startSessionPurgeWorker(boss, {
    db: deps.db,
    logger: deps.logger.child({ component: 'session-purge' }),
  })
  await startKnowledgeWorker(boss, {
    db: deps.db,
    logger: deps.logger.child({ component: 'knowledge' }),
    web: deps.web,
  })
  await startConversationResumeWorker(boss, {
    db: deps.db,
    logger: deps.logger.child({ component: 'conversation-resume' }),
  })
  await startAnalyticsRollupWorker(boss, {
    db: deps.db,
    logger: deps.logger.child({ component: 'analytics-rollup' }),
  })
}
