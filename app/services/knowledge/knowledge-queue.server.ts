import type { PgBoss } from 'pg-boss'
import type { Database } from '~/db/client.server'
import { jobsIn } from '~/db/jobs.server'

/** The queue of knowledge jobs: one per source change or re-fetch (docs/decisions/042). */
export const KNOWLEDGE_QUEUE = 'knowledge-process'

export type KnowledgeJobData = { sourceId: string; revision: number }

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]

/** Sends a source's processing job inside the transaction that stored the change: both happen or neither. */
export type KnowledgeJobs = (tx: Transaction, job: KnowledgeJobData) => Promise<void>

export function knowledgeJobsOf(boss: Pick<PgBoss, 'send'>): KnowledgeJobs {
  return async (tx, job) => {
    await boss.send(KNOWLEDGE_QUEUE, job, { db: jobsIn(tx), singletonKey: `${job.sourceId}:${job.revision}` })
  }
}
