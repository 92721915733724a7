import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import type { PgBoss } from 'pg-boss'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '~/db/client.server'
import { conversations } from '~/db/schema'
import { upsertConversation } from '~/services/messages/ingest/ingest.server'
import { createLogger } from '~/utils/logger.server'
import { openTestDatabase } from '../../tests/setup/database'
import { newOwnerScope } from '../../tests/setup/scope'
import { insertTestMetaChannel } from '../../tests/setup/tenant'
import {
  handleConversationResumeJob,
  resumeSchedulerOf,
  startConversationResumeWorker,
} from './conversation-resume.server'
import { CONVERSATION_RESUME_CRON, CONVERSATION_RESUME_QUEUE, startQueues, stopQueues } from './queues.server'

// The hand-back through pg-boss: the job sent for a conversation's time resumes it then, with no message from
// the customer; a pause moved later meanwhile is left alone; the minute's sweep catches what no job names.
let handle: DatabaseHandle
let boss: PgBoss
beforeAll(async () => {
  handle = await openTestDatabase()
  const logger = createLogger({ sink: () => undefined })
  const schema = `pgboss_${randomUUID().replaceAll('-', '').slice(0, 12)}`
  boss = await startQueues({ database: handle, databaseUrl: process.env.DATABASE_URL, logger, schema })
  await startConversationResumeWorker(boss, { db: handle.db, logger })
})
afterAll(async () => {
  await stopQueues(boss, 1_000)
  await handle.close()
})

let chats = 0
async function pausedConversation(untilInMs: number) {
  const scope = await newOwnerScope(handle.db)
  const { channelId } = await insertTestMetaChannel(scope, { encryptionKey: 'a'.repeat(64) }, 'facebook')
  const { id } = await upsertConversation(handle.db, {
    organizationId: scope.organizationId,
    channelId,
    platformChatId: `psid-${++chats}`,
  })
  const [row] = await handle.db
    .update(conversations)
    .set({
      aiPausedAt: sql`now()`,
      aiPausedUntil: sql`now() + make_interval(secs => ${untilInMs / 1000})`,
    })
    .where(eq(conversations.id, id))
    .returning({ until: conversations.aiPausedUntil })
  return { id, until: row.until ?? new Date() }
}
const stateOf = async (id: string) =>
  (await handle.db.select().from(conversations).where(eq(conversations.id, id)))[0].state

describe('the hand-back to the AI', () => {
  it('is scheduled every minute as a sweep', async () => {
    const [schedule] = await boss.getSchedules(CONVERSATION_RESUME_QUEUE)
    expect(schedule).toMatchObject({ cron: CONVERSATION_RESUME_CRON, timezone: 'UTC' })
  })

  it('resumes a conversation at its time through the job, with no customer message', async () => {
    const { id, until } = await pausedConversation(1500)
    await resumeSchedulerOf(boss)(id, until)
    expect(await stateOf(id)).toBe('paused')
    const started = Date.now()
    while ((await stateOf(id)) === 'paused' && Date.now() - started < 15_000) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(await stateOf(id)).toBe('ai')
    expect(Date.now()).toBeGreaterThanOrEqual(until.getTime())
  })

  it('leaves a pause that was moved later, and the sweep resumes only what is due', async () => {
    const later = await pausedConversation(60_000)
    const due = await pausedConversation(-1000)
    await handleConversationResumeJob(
      { db: handle.db, logger: createLogger({ sink: () => undefined }) },
      {
        conversationId: later.id,
      },
    )
    expect(await stateOf(later.id)).toBe('paused')
    await handleConversationResumeJob({ db: handle.db, logger: createLogger({ sink: () => undefined }) }, {})
    expect(await stateOf(due.id)).toBe('ai')
    expect(await stateOf(later.id)).toBe('paused')
  })
})
