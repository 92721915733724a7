import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { TestClock, type PgBoss } from 'pg-boss'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '~/db/client.server'
import { sessions } from '~/db/schema'
import { createSession } from '~/services/auth/sessions.server'
import { upsertUser } from '~/services/auth/users.server'
import { createLogger } from '~/utils/logger.server'
import { openTestDatabase } from '../../tests/setup/database'
import { SESSION_PURGE_CRON, SESSION_PURGE_QUEUE, startQueues, stopQueues } from './queues.server'
import { startSessionPurgeWorker } from './session-purge.server'

// pg-boss's own scheduler on its test clock: the hour's cron pass sends the purge job, the worker takes it from
// the queue and purges. Its own database: the test clock is a setting of pg-boss's session.
let handle: DatabaseHandle
let boss: PgBoss
const clock = new TestClock(new Date('2026-03-02T10:21:30Z'))
const logs: string[] = []
beforeAll(async () => {
  handle = await openTestDatabase()
  const logger = createLogger({ sink: (line) => logs.push(line) })
  const schema = `pgboss_${randomUUID().replaceAll('-', '').slice(0, 12)}`
  boss = await startQueues({ database: handle, databaseUrl: process.env.DATABASE_URL, logger, schema, clock })
  await startSessionPurgeWorker(boss, { db: handle.db, logger })
})
afterAll(async () => {
  await stopQueues(boss, 1_000)
  await handle.close()
})

async function sessionOf(expiresAt: Date) {
  const user = await upsertUser({
    db: handle.db,
    firebaseUid: `uid-${randomUUID()}`,
    email: 'purge@example.com',
    displayName: 'Purge',
  })
  const session = await createSession({ db: handle.db, userId: user.id })
  await handle.db.update(sessions).set({ expiresAt }).where(eq(sessions.id, session.id))
  return session.id
}
const exists = async (id: string) =>
  (await handle.db.select().from(sessions).where(eq(sessions.id, id))).length > 0

describe('the session purge', () => {
  it('is scheduled hourly in pg-boss', async () => {
    const [schedule] = await boss.getSchedules(SESSION_PURGE_QUEUE)
    expect(schedule).toMatchObject({ name: SESSION_PURGE_QUEUE, cron: SESSION_PURGE_CRON, timezone: 'UTC' })
  })

  it('deletes expired sessions when the schedule comes due, through the queue, and keeps the others', async () => {
    const expired = await sessionOf(new Date(Date.now() - 60_000))
    const live = await sessionOf(new Date(Date.now() + 60 * 60_000))

    // Before minute 23 nothing is sent.
    await clock.tick(30_000)
    expect(await exists(expired)).toBe(true)

    // Past 10:23: the cron pass sends the job, pg-boss forwards it to the queue, the worker purges.
    for (let i = 0; i < 30 && (await exists(expired)); i++) {
      await clock.tick(30_000)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(await exists(expired)).toBe(false)
    expect(await exists(live)).toBe(true)
    expect(logs.some((line) => line.includes('expired sessions purged'))).toBe(true)
  })
})
