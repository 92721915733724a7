import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { withTestDatabase } from '../../../tests/setup/database'
import { newTestUser } from '../../../tests/setup/scope'
import {
  createSession,
  deleteExpiredSessions,
  deleteSession,
  deleteUserSessions,
  findSessionUser,
  SESSION_TTL_MS,
} from './sessions.server'
import { upsertUser } from './users.server'

const db = withTestDatabase()

const newUser = () => newTestUser(db(), 'Ada', 'a@example.com')

describe('sessions', () => {
  it('creates a random id that finds its user until it expires', async () => {
    const user = await newUser()
    const now = new Date()
    const session = await createSession({ db: db(), userId: user.id, now })
    expect(session.id).toMatch(/^[\w-]{43}$/)
    expect(session.expiresAt.getTime() - now.getTime()).toBe(SESSION_TTL_MS)
    const found = await findSessionUser({ db: db(), sessionId: session.id })
    expect(found?.user.id).toBe(user.id)
    const later = new Date(now.getTime() + SESSION_TTL_MS + 1)
    expect(await findSessionUser({ db: db(), sessionId: session.id, now: later })).toBeUndefined()
    await deleteExpiredSessions({ db: db(), now: later })
    expect(await findSessionUser({ db: db(), sessionId: session.id })).toBeUndefined()
  })

  it('deletes one session, or all of a user, and nobody else’s', async () => {
    const [a, b] = await Promise.all([newUser(), newUser()])
    const a1 = await createSession({ db: db(), userId: a.id })
    const a2 = await createSession({ db: db(), userId: a.id })
    const b1 = await createSession({ db: db(), userId: b.id })
    await deleteSession({ db: db(), sessionId: a1.id })
    expect(await findSessionUser({ db: db(), sessionId: a1.id })).toBeUndefined()
    expect(await findSessionUser({ db: db(), sessionId: a2.id })).toBeDefined()
    expect(await deleteUserSessions({ db: db(), userId: a.id })).toBe(1)
    expect(await findSessionUser({ db: db(), sessionId: a2.id })).toBeUndefined()
    expect(await findSessionUser({ db: db(), sessionId: b1.id })).toBeDefined()
  })

  it('upserting a user keeps one row and does not erase a known name', async () => {
    const uid = `uid-${randomUUID()}`
    const first = await upsertUser({
      db: db(),
      firebaseUid: uid,
      email: 'x@example.com',
      displayName: 'Xavier',
    })
    const second = await upsertUser({
      db: db(),
      firebaseUid: uid,
      email: 'x@example.com',
      displayName: undefined,
    })
    expect(second.id).toBe(first.id)
    expect(second.displayName).toBe('Xavier')
  })
})
