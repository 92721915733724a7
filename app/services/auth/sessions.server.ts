import { randomBytes } from 'node:crypto'
import { and, eq, gt, lt } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { sessions, users, type Session, type User } from '~/db/schema'

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000

export async function createSession({
  db,
  userId,
  now = new Date(),
}: {
  db: Database
  userId: string
  now?: Date
}): Promise<Session> {
  const [session] = await db
    .insert(sessions)
    .values({
      id: randomBytes(32).toString('base64url'),
      userId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
    })
    .returning()
  return session
}

/** The session and its user, or undefined when the id is unknown or the session has expired. */
export async function findSessionUser({
  db,
  sessionId,
  now = new Date(),
}: {
  db: Database
  sessionId: string
  now?: Date
}): Promise<{ session: Session; user: User } | undefined> {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, now)))
    .limit(1)
  return row
}

export async function deleteSession({ db, sessionId }: { db: Database; sessionId: string }): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId))
}

/** Ends every session of a user: used when the identity provider says the account is gone, off or revoked. */
export async function deleteUserSessions({ db, userId }: { db: Database; userId: string }): Promise<number> {
  const deleted = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id })
  return deleted.length
}

/** Deletes the sessions that have expired (run on a schedule: app/jobs/session-purge.server.ts); how many. */
export async function deleteExpiredSessions({
  db,
  now = new Date(),
}: {
  db: Database
  now?: Date
}): Promise<number> {
  const deleted = await db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id })
  return deleted.length
}
