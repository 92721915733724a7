import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createSession, findSessionUser } from '~/services/auth/sessions.server'
import { withTestDatabase } from '../../../tests/setup/database'
import { newTestUser } from '../../../tests/setup/scope'
import {
  addMember,
  createOrganization,
  deleteOrganization,
  getOrganization,
  listOrganizations,
  removeMember,
  renameOrganization,
  resolveCurrentOrganization,
  switchOrganization,
  updateOrganization,
} from './organizations.server'
import { EMAIL_CONFIRMED } from '../../../tests/setup/email-verification'
import { acceptInvitation } from './invitations.server'
import { requireOrganizationScope } from './scope.server'

const db = withTestDatabase()

const newUser = (name = 'U') => newTestUser(db(), name)
const scope = (userId: string, organizationId: string) =>
  requireOrganizationScope({ db: db(), userId, organizationId })

describe('organizations', () => {
  it('the creator owns a new organization on the free plan', async () => {
    const user = await newUser()
    const org = await createOrganization({ db: db(), userId: user.id, name: 'Acme' })
    expect(org).toMatchObject({ name: 'Acme', plan: 'free', role: 'owner' })
    expect(await listOrganizations({ db: db(), userId: user.id })).toEqual([org])
    expect(await getOrganization(await scope(user.id, org.id))).toMatchObject({ timeZone: 'UTC' })
  })

  it("starts in the creator's time zone when the form sent one (issue 34)", async () => {
    const user = await newUser()
    const org = await createOrganization({
      db: db(),
      userId: user.id,
      name: 'Padaria',
      timeZone: 'America/Sao_Paulo',
    })
    expect(await getOrganization(await scope(user.id, org.id))).toMatchObject({
      timeZone: 'America/Sao_Paulo',
    })
  })

  it('the scope guard refuses non-members, malformed ids and unknown ids alike', async () => {
    const [owner, stranger] = await Promise.all([newUser(), newUser()])
    const org = await createOrganization({ db: db(), userId: owner.id, name: 'Private' })
    for (const [userId, organizationId] of [
      [stranger.id, org.id],
      [owner.id, 'not-a-uuid'],
      [owner.id, randomUUID()],
    ]) {
      await expect(scope(userId, organizationId)).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: 'Organization not found',
      })
    }
  })

  it('only owners rename, delete and manage members; the last owner cannot leave', async () => {
    const [owner, member] = await Promise.all([newUser('Owner'), newUser('Member')])
    const org = await createOrganization({ db: db(), userId: owner.id, name: 'Team' })
    const ownerScope = await scope(owner.id, org.id)
    // Adding by uid only invites: the person is no member until they accept.
    const { invitation } = await addMember(ownerScope, member.firebaseUid)
    await expect(scope(member.id, org.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await acceptInvitation({
      db: db(),
      identity: EMAIL_CONFIRMED,
      userId: member.id,
      invitationId: invitation.id,
    })
    const memberScope = await scope(member.id, org.id)
    expect(memberScope.role).toBe('member')
    await expect(renameOrganization(memberScope, 'X')).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(updateOrganization(memberScope, { autoResolveHours: 0 })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
    await expect(deleteOrganization(memberScope)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(removeMember(memberScope, owner.firebaseUid)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(removeMember(ownerScope, owner.firebaseUid)).rejects.toMatchObject({ code: 'CONFLICT' })
    expect((await renameOrganization(ownerScope, 'Team 2'))?.name).toBe('Team 2')
    expect(await removeMember(ownerScope, member.firebaseUid)).toHaveLength(1)
    await deleteOrganization(ownerScope)
    expect(await getOrganization(ownerScope)).toBeUndefined()
  })

  it('the current organization: the stored one while valid, else the first; switching checks membership', async () => {
    const [user, other] = await Promise.all([newUser(), newUser()])
    const first = await createOrganization({ db: db(), userId: user.id, name: 'First' })
    const second = await createOrganization({ db: db(), userId: user.id, name: 'Second' })
    const foreign = await createOrganization({ db: db(), userId: other.id, name: 'Foreign' })
    const session = await createSession({ db: db(), userId: user.id })

    const initial = await resolveCurrentOrganization({
      db: db(),
      userId: user.id,
      sessionId: session.id,
      storedId: null,
    })
    expect(initial.current?.id).toBe(first.id)
    expect((await findSessionUser({ db: db(), sessionId: session.id }))?.session.currentOrganizationId).toBe(
      first.id,
    )

    await switchOrganization({
      db: db(),
      userId: user.id,
      sessionId: session.id,
      organizationId: second.id,
    })
    const stored =
      (await findSessionUser({ db: db(), sessionId: session.id }))?.session.currentOrganizationId ?? null
    expect(stored).toBe(second.id)
    expect(
      (
        await resolveCurrentOrganization({
          db: db(),
          userId: user.id,
          sessionId: session.id,
          storedId: stored,
        })
      ).current?.id,
    ).toBe(second.id)

    await expect(
      switchOrganization({
        db: db(),
        userId: user.id,
        sessionId: session.id,
        organizationId: foreign.id,
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const gone = await resolveCurrentOrganization({
      db: db(),
      userId: user.id,
      sessionId: session.id,
      storedId: foreign.id,
    })
    expect(gone.current?.id).toBe(first.id)
  })
})
