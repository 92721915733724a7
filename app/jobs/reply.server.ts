import type { Job, JobResult, PgBoss } from 'pg-boss'
import { z } from 'zod'
import { DEFAULT_REPLY_WORKER_CONCURRENCY } from '~/lib/conversations/reply-pipeline'
import { nameMessengerCustomer, type CustomerNameDeps } from '~/services/conversations/customer-name.server'
import { inboundOf, replyWithContext, type ReplyDeps } from '~/services/messages/reply/reply.server'
import { loadReplyContext, markReplyFailed } from '~/services/messages/reply/queries.server'
import { REPLY_QUEUE } from '~/services/messages/ingest/reply-queue.server'
import { recordReply } from '~/utils/metrics.server'
import { REPLY_QUEUE_OPTIONS } from '~/jobs/queues.server'
import { replyWakeupsOf } from './reply-wakeups.server'

const jobData = z.object({ messageId: z.uuid() })

export type ReplyWorkerDeps = Omit<ReplyDeps, 'signal' | 'graph'> & {
  graph: ReplyDeps['graph'] & CustomerNameDeps['graph']
}

/**
 * One reply job. Model and platform failures are settled by the service (recorded on the message); what is left
 * to throw is the database or an abort, which pg-boss retries. The last attempt records the failure on the
 * message and completes the job instead: a failed job would hold its conversation's later messages back.
 * After the reply work, a Messenger conversation's first message has its customer's name looked up: never before
 * that message's answer (with a burst wait, its job may leave the answer to a later message's), and never
 * failing the job.
 */
export async function handleReplyJob(deps: ReplyWorkerDeps, job: Job<unknown>): Promise<void> {
  const parsed = jobData.safeParse(job.data)
  if (!parsed.success) {
    deps.logger.warn('reply job with unreadable data dropped', { jobId: job.id })
    return
  }
  const { messageId } = parsed.data
  const log = deps.logger.child({ jobId: job.id, messageId })
  // Unknown when the reply failed: the name is asked then as it would have been.
  let unnamedMessengerCustomer = true
  try {
    const { result, context } = await replyWithContext(
      { ...deps, logger: log, signal: job.signal },
      messageId,
    )
    unnamedMessengerCustomer =
      context?.channel.platformName === 'facebook' && context.conversation.customerName === null
    log.info('reply job done', result)
  } catch (error) {
    if (job.retryCount < REPLY_QUEUE_OPTIONS.retryLimit || job.signal.aborted) throw error
    const reason = error instanceof Error ? error.message : String(error)
    log.error('reply job gave up', { error })
    // The burst the message ends fails with it (its earlier messages have no job of their own any more).
    const context = await loadReplyContext(deps.db, messageId, 1).catch(() => undefined)
    const inbound = context ? inboundOf(context) : { id: messageId }
    await markReplyFailed(deps.db, inbound, `Internal error: ${reason}`).then(
      () => recordReply('unknown', { kind: 'failed' }),
      () => undefined,
    )
  }
  if (job.signal.aborted || !unnamedMessengerCustomer) return
  try {
    await nameMessengerCustomer({ ...deps, logger: log }, messageId)
  } catch (error) {
    log.warn('customer name not stored', { error })
  }
}

/** The jobs a reply worker takes at once: one fetch and one completion serve them all (issue 31). */
export const REPLY_BATCH_SIZE = 4

/**
 * One batch of reply jobs, each settled on its own: a job whose attempt failed is retried without failing the
 * others. Only an abort (pg-boss stopping) fails the whole batch.
 */
export async function handleReplyBatch(deps: ReplyWorkerDeps, jobs: Job<unknown>[]): Promise<JobResult[]> {
  return Promise.all(
    jobs.map(async (job): Promise<JobResult> => {
      try {
        await handleReplyJob(deps, job)
        return { id: job.id, status: 'completed' }
      } catch (error) {
        if (job.signal.aborted) throw error
        return {
          id: job.id,
          status: 'failed',
          output: { message: error instanceof Error ? error.message : String(error) },
        }
      }
    }),
  )
}

/**
 * Starts this process's reply workers; pg-boss stops them (letting current jobs finish) when it stops. Each
 * worker takes up to REPLY_BATCH_SIZE jobs at once, so `concurrency` jobs run in concurrency / REPLY_BATCH_SIZE
 * workers.
 *
 * Each worker wakes itself at the end of every batch: pg-boss would otherwise wait out the polling interval before
 * its next fetch, and the job that just completed is what lets the next message of its conversation run (no
 * NOTIFY says so; NOTIFY comes only when a job is sent). Hence one `work()` per worker, each knowing its id. A
 * new job wakes one idle worker, not all of them (ReplyWakeups).
 */
export async function startReplyWorker(
  boss: PgBoss,
  deps: ReplyWorkerDeps,
  { concurrency = DEFAULT_REPLY_WORKER_CONCURRENCY.postgres }: { concurrency?: number } = {},
): Promise<string[]> {
  const wakeups = replyWakeupsOf(boss)
  const batchSize = Math.min(REPLY_BATCH_SIZE, concurrency)
  const ids: string[] = []
  for (let i = 0; i < Math.ceil(concurrency / batchSize); i++) {
    const self: { id?: string } = {}
    self.id = await boss.work(
      REPLY_QUEUE,
      { batchSize, perJobResults: true, pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 2 },
      async (jobs) => {
        if (self.id) wakeups.busy(self.id)
        try {
          return await handleReplyBatch(deps, jobs)
        } finally {
          if (self.id) {
            wakeups.idle(self.id)
            boss.notifyWorker(self.id)
          }
        }
      },
    )
    wakeups.idle(self.id)
    ids.push(self.id)
  }
  return ids
}
