import type { Job, PgBoss } from 'pg-boss'
import { z } from 'zod'
import { KNOWLEDGE_QUEUE } from '~/services/knowledge/knowledge-queue.server'
import {
  markProcessingFailed,
  processKnowledgeSource,
  type KnowledgeProcessDeps,
} from '~/services/knowledge/process-source.server'
import { KNOWLEDGE_QUEUE_OPTIONS } from './queues.server'

const jobData = z.object({ sourceId: z.uuid(), revision: z.number().int() })

/**
 * One knowledge job: a source's revision processed into passages. What the user can fix (an unreadable file, a
 * refused address) is settled by the service; a database failure is retried, and the last attempt marks the source
 * failed instead of leaving it processing for ever.
 */
export async function handleKnowledgeJob(deps: KnowledgeProcessDeps, job: Job<unknown>): Promise<void> {
  const parsed = jobData.safeParse(job.data)
  if (!parsed.success) {
    deps.logger.warn('knowledge job with unreadable data dropped', { jobId: job.id })
    return
  }
  const log = deps.logger.child({ jobId: job.id, sourceId: parsed.data.sourceId })
  try {
    const outcome = await processKnowledgeSource({ ...deps, logger: log }, parsed.data)
    log.info('knowledge job done', { outcome })
  } catch (error) {
    if (job.retryCount < KNOWLEDGE_QUEUE_OPTIONS.retryLimit) throw error
    log.error('knowledge job gave up', { error })
    await markProcessingFailed(deps.db, parsed.data)
  }
}

export function startKnowledgeWorker(boss: PgBoss, deps: KnowledgeProcessDeps): Promise<string> {
  return boss.work(
    KNOWLEDGE_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 2 },
    async ([job]) => handleKnowledgeJob(deps, job),
  )
}
