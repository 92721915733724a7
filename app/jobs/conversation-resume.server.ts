import type { PgBoss } from 'pg-boss'
import type { Database } from '~/db/client.server'
import { resolveQuietConversations, wakeSnoozedConversations } from '~/services/conversations/status.server'
import { resumeDueConversations, type ResumeScheduler } from '~/services/conversations/takeover.server'
import type { Logger } from '~/utils/logger.server'
import { CONVERSATION_RESUME_QUEUE } from './queues.server'

export type ConversationResumeDeps = { db: Database; logger: Logger }
export type ConversationResumeJob = { conversationId?: string }

/**
 * The hand-back to the AI: a job sent for the time a conversation's pause runs out resumes that conversation
 * (if its pause was not extended meanwhile); the scheduler's job once a minute, without a conversation, resumes
 * every conversation past its time (a job lost between a pause and its send is caught within a minute), opens
 * the snoozed ones that are due and resolves the AI's quiet ones (docs/decisions/058).
 */
export async function handleConversationResumeJob(
  deps: ConversationResumeDeps,
  data: ConversationResumeJob | null | undefined,
): Promise<void> {
  const resumed = await resumeDueConversations(deps.db, data?.conversationId)
  if (resumed.length > 0) deps.logger.info('AI resumed in conversations', { count: resumed.length })
  if (data?.conversationId) return
  // The minute's sweep also ends the snoozes that are due and lets the AI resolve its quiet conversations.
  const woken = await wakeSnoozedConversations(deps.db)
  const resolved = await resolveQuietConversations(deps.db)
  if (woken + resolved > 0) deps.logger.info('conversations swept', { woken, resolved })
}

export function startConversationResumeWorker(boss: PgBoss, deps: ConversationResumeDeps): Promise<string> {
  return boss.work<ConversationResumeJob>(
    CONVERSATION_RESUME_QUEUE,
    // A hand-back job is due at its time, not when it is sent: NOTIFY wakes workers at the send only, and the
    // 30 s poll of a notify queue would hand back up to half a minute late (seen on PostgreSQL). One cheap fetch
    // a second per worker process keeps it on time.
    { batchSize: 10, pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1 },
    async (jobs) => {
      for (const job of jobs) await handleConversationResumeJob(deps, job.data)
    },
  )
}

/** Sends a conversation's hand-back job for the time it is due. */
export function resumeSchedulerOf(boss: Pick<PgBoss, 'send'>): ResumeScheduler {
  return async (conversationId, at) => {
    await boss.send(CONVERSATION_RESUME_QUEUE, { conversationId }, { startAfter: at })
  }
}
