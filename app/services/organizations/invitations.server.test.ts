import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { memberships } from '~/db/schema'
import { createSession } from '~/services/auth/sessions.server'
import { upsertUser } from '~/services/auth/users.server'
import { withTestDatabase } from '../../../tests/setup/database'
import { newTestUser } from '../../../tests/setup/scope'
import {
  EMAIL_CONFIRMED,
  newEmulatorUser,
  openConfirmationLink,
  sentLinks,
} from '../../../tests/setup/email-verification'
import { testIdentity } from '../../../tests/setup/identity'
import {
  acceptInvitation,
  ALREADY_A_MEMBER,
  CONFIRM_EMAIL_FIRST,
  declineInvitation,
  inviteMember,
  listInvitations,
  listMyInvitations,
  revokeInvitation,
  sendInvitationEmailConfirmation,
} from './invitations.server'
import {
  addMember,
  createOrganization,
  LAST_OWNER,
  leaveOrganization,
  listMembers,
  listOrganizations,
  removeMember,
  resolveCurrentOrganization,
} from './organizations.server'
import { requireOrganizationScope } from './scope.server'

const db = withTestDatabase()

const newUser = (name = 'U') => newTestUser(db(), name)
const scope = (userId: string, organizationId: string) =>
  requireOrganizationScope({ db: db(), userId, organizationId })

/** An owner with an organization, and their scope in it. */
async function team(name = 'Team') {
  const owner = await newUser('Owner')
  const org = await createOrganization({ db: db(), userId: owner.id, name })
  return { owner, org, ownerScope: await scope(owner.id, org.id) }
}

const mine = async (userId: string) =>
  (await listMyInvitations({ db: db(), identity: EMAIL_CONFIRMED, userId })).invitations
const answer = (userId: string, invitationId: string) => ({
  db: db(),
  identity: EMAIL_CONFIRMED,
  userId,
  invitationId,
})

describe('invitations', () => {
  it('accepted: an owner invites by email, the invitee sees it, accepts and becomes a member', async () => {
    const { owner, org, ownerScope } = await team('Acme')
    const invitee = await newUser('Invitee')
    const typed = `  ${invitee.email?.toUpperCase()} `
    const { invitation, created } = await inviteMember(ownerScope, { email: typed })
    expect(created).toBe(true)
    expect(invitation).toMatchObject({
      organizationId: org.id,
      email: invitee.email,
      invitee: invitee.email,
      role: 'member',
      status: 'pending',
      invitedBy: 'Owner',
    })

    // Not a member yet: no access, not listed, no organization in their list.
    await expect(scope(invitee.id, org.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect((await listMembers(ownerScope)).map((m) => m.uid)).toEqual([owner.firebaseUid])
    expect(await listOrganizations({ db: db(), userId: invitee.id })).toEqual([])

    const received = await mine(invitee.id)
    expect(received).toEqual([
      {
        id: invitation.id,
        organizationId: org.id,
        organizationName: 'Acme',
        role: 'member',
        invitedBy: 'Owner',
        createdAt: expect.any(Date),
      },
    ])

    const joined = await acceptInvitation(answer(invitee.id, invitation.id))
    expect(joined).toEqual({ id: org.id, name: 'Acme', plan: 'free', role: 'member' })
    expect((await scope(invitee.id, org.id)).role).toBe('member')
    expect((await listMembers(ownerScope)).map((m) => [m.uid, m.email, m.role])).toEqual([
      [owner.firebaseUid, owner.email, 'owner'],
      [invitee.firebaseUid, invitee.email, 'member'],
    ])
    expect(await mine(invitee.id)).toEqual([])
    expect(await listInvitations(ownerScope)).toEqual([])
    await expect(acceptInvitation(answer(invitee.id, invitation.id))).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This invitation was already accepted',
    })
  })

  it('declined: no membership, the owner no longer sees it pending, and may invite again', async () => {
    const { org, ownerScope } = await team()
    const invitee = await newUser('Decliner')
    const { invitation } = await inviteMember(ownerScope, { email: invitee.email ?? '' })
    await declineInvitation(answer(invitee.id, invitation.id))
    await expect(scope(invitee.id, org.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(await mine(invitee.id)).toEqual([])
    expect(await listInvitations(ownerScope)).toEqual([])
    await expect(acceptInvitation(answer(invitee.id, invitation.id))).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This invitation was already declined',
    })
    const again = await inviteMember(ownerScope, { email: invitee.email ?? '' })
    expect(again.created).toBe(true)
    expect(again.invitation.id).not.toBe(invitation.id)
  })

  it('revoked: the invitee no longer sees it and cannot accept it', async () => {
    const { org, ownerScope } = await team()
    const invitee = await newUser('Revokee')
    const { invitation } = await inviteMember(ownerScope, { email: invitee.email ?? '' })
    await revokeInvitation(ownerScope, invitation.id)
    expect(await mine(invitee.id)).toEqual([])
    expect(await listInvitations(ownerScope)).toEqual([])
    await expect(acceptInvitation(answer(invitee.id, invitation.id))).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This invitation was withdrawn by the organization',
    })
    await expect(scope(invitee.id, org.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(revokeInvitation(ownerScope, invitation.id)).rejects.toMatchObject({ code: 'CONFLICT' })
  })

  it('an invitation for an address nobody has used yet waits for the account that signs in with it', async () => {
    const { org, ownerScope } = await team('Early')
    const email = `later-${randomUUID()}@example.com`
    const { invitation } = await inviteMember(ownerScope, { email })
    const later = await upsertUser({
      db: db(),
      firebaseUid: `uid-${randomUUID()}`,
      email,
      displayName: 'Later',
    })
    expect((await mine(later.id)).map((i) => i.organizationId)).toEqual([org.id])
    await acceptInvitation(answer(later.id, invitation.id))
    expect((await scope(later.id, org.id)).role).toBe('member')
  })

  it('re-inviting a pending invitee is idempotent, also when two owners invite at once', async () => {
    const { ownerScope } = await team()
    const email = `twice-${randomUUID()}@example.com`
    const [a, b] = await Promise.all([
      inviteMember(ownerScope, { email }),
      inviteMember(ownerScope, { email: email.toUpperCase() }),
    ])
    expect(a.invitation.id).toBe(b.invitation.id)
    const third = await inviteMember(ownerScope, { email })
    expect(third).toMatchObject({ created: false, invitation: { id: a.invitation.id } })
    expect(await listInvitations(ownerScope)).toHaveLength(1)
  })

  it('inviting a member is a conflict, by email or by uid', async () => {
    const { owner, ownerScope } = await team()
    await expect(inviteMember(ownerScope, { email: owner.email ?? '' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: ALREADY_A_MEMBER,
    })
    await expect(addMember(ownerScope, owner.firebaseUid)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: ALREADY_A_MEMBER,
    })
    await expect(addMember(ownerScope, 'no-such-uid')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it("an invitation by uid never shows the invitee's email, before or after it is answered", async () => {
    const { org, ownerScope } = await team('Private')
    const invitee = await newUser('Quiet')
    const { invitation, created } = await addMember(ownerScope, invitee.firebaseUid)
    expect(created).toBe(true)
    expect(invitation).toMatchObject({ email: null, invitee: 'Invited user', status: 'pending' })
    const email = invitee.email ?? ''
    expect(JSON.stringify(invitation)).not.toContain(email)
    expect(JSON.stringify(await listInvitations(ownerScope))).not.toContain(email)
    expect(JSON.stringify(await listMembers(ownerScope))).not.toContain(email)
    expect(await addMember(ownerScope, invitee.firebaseUid)).toMatchObject({
      created: false,
      invitation: { id: invitation.id },
    })

    expect((await mine(invitee.id)).map((i) => i.organizationName)).toEqual(['Private'])
    await declineInvitation(answer(invitee.id, invitation.id))
    expect(JSON.stringify(await listInvitations(ownerScope))).not.toContain(email)
    expect(JSON.stringify(await listMembers(ownerScope))).not.toContain(email)
    await expect(scope(invitee.id, org.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('an invitee invited twice (by uid and by email) answers both at once and sees one', async () => {
    const { org, ownerScope } = await team('Twice')
    const invitee = await newUser('Double')
    const byUid = await addMember(ownerScope, invitee.firebaseUid)
    await inviteMember(ownerScope, { email: invitee.email ?? '' })
    expect(await mine(invitee.id)).toHaveLength(1)
    await acceptInvitation(answer(invitee.id, byUid.invitation.id))
    expect(await listInvitations(ownerScope)).toEqual([])
    expect((await scope(invitee.id, org.id)).role).toBe('member')
  })

  it('only owners invite, list and revoke', async () => {
    const { ownerScope, org } = await team()
    const member = await newUser('Member')
    const { invitation } = await addMember(ownerScope, member.firebaseUid)
    await acceptInvitation(answer(member.id, invitation.id))
    const memberScope = await scope(member.id, org.id)
    const pending = await inviteMember(ownerScope, { email: `x-${randomUUID()}@example.com` })
    await expect(inviteMember(memberScope, { email: 'friend@example.com' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
    await expect(addMember(memberScope, member.firebaseUid)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(listInvitations(memberScope)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(revokeInvitation(memberScope, pending.invitation.id)).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
  })

  it('cross-tenant: only the invitee answers, and another organization cannot see or revoke it', async () => {
    const a = await team('A')
    const b = await team('B')
    const invitee = await newUser('Target')
    const stranger = await newUser('Stranger')
    const { invitation } = await inviteMember(a.ownerScope, { email: invitee.email ?? '' })

    for (const userId of [stranger.id, b.owner.id, a.owner.id]) {
      await expect(acceptInvitation(answer(userId, invitation.id))).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: 'Invitation not found',
      })
      await expect(declineInvitation(answer(userId, invitation.id))).rejects.toMatchObject({
        code: 'NOT_FOUND',
      })
    }
    expect(await mine(stranger.id)).toEqual([])
    await expect(revokeInvitation(b.ownerScope, invitation.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(await listInvitations(b.ownerScope)).toEqual([])
    await expect(scope(stranger.id, a.org.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    for (const bad of ['not-a-uuid', randomUUID()]) {
      await expect(acceptInvitation(answer(invitee.id, bad))).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(revokeInvitation(a.ownerScope, bad)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    }
    expect((await listInvitations(a.ownerScope)).map((i) => i.status)).toEqual(['pending'])
  })
})

describe('leaving an organization', () => {
  it('a member leaves; their session falls back to their first organization', async () => {
    const { org, ownerScope } = await team('Left behind')
    const member = await newUser('Leaver')
    const home = await createOrganization({ db: db(), userId: member.id, name: 'Home' })
    const { invitation } = await inviteMember(ownerScope, { email: member.email ?? '' })
    await acceptInvitation(answer(member.id, invitation.id))
    const session = await createSession({ db: db(), userId: member.id })
    const resolve = (storedId: string | null) =>
      resolveCurrentOrganization({ db: db(), userId: member.id, sessionId: session.id, storedId })
    expect((await resolve(org.id)).current?.id).toBe(org.id)

    await leaveOrganization(await scope(member.id, org.id))
    await expect(scope(member.id, org.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect((await listMembers(ownerScope)).map((m) => m.role)).toEqual(['owner'])
    const after = await resolve(org.id)
    expect(after.current?.id).toBe(home.id)
    expect(after.organizations.map((o) => o.name)).toEqual(['Home'])
  })

  it('the last owner cannot leave; an owner can once another owner exists', async () => {
    const { owner, org, ownerScope } = await team()
    await expect(leaveOrganization(ownerScope)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: LAST_OWNER,
    })
    expect((await scope(owner.id, org.id)).role).toBe('owner')

    const second = await newUser('Second owner')
    await db().insert(memberships).values({ organizationId: org.id, userId: second.id, role: 'owner' })
    const secondScope = await scope(second.id, org.id)
    // Both try at once: exactly one may go.
    const results = await Promise.allSettled([leaveOrganization(ownerScope), leaveOrganization(secondScope)])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    expect(results.filter((r) => r.status === 'rejected').map((r) => r.reason)).toMatchObject([
      { code: 'CONFLICT', message: LAST_OWNER },
    ])
    const remaining = await db().query.memberships.findMany({
      where: (m, { eq }) => eq(m.organizationId, org.id),
    })
    expect(remaining.map((m) => m.role)).toEqual(['owner'])
  })

  it('an owner still removes a member, and a removed member may be invited again', async () => {
    const { org, ownerScope } = await team()
    const member = await newUser('Removed')
    const first = await addMember(ownerScope, member.firebaseUid)
    await acceptInvitation(answer(member.id, first.invitation.id))
    expect(await removeMember(ownerScope, member.firebaseUid)).toHaveLength(1)
    await expect(scope(member.id, org.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect((await addMember(ownerScope, member.firebaseUid)).created).toBe(true)
  })
})

describe('an invitation by email waits until the invitee confirms the address (issue 31)', () => {
  const identity = testIdentity()

  it('unconfirmed: the organization is only counted and cannot be answered; confirmed through the emulator, it can', async () => {
    const { org, ownerScope } = await team('Secret Recipes')
    const invitee = await newEmulatorUser(db(), 'Claimant')
    const email = invitee.email ?? ''
    const { invitation } = await inviteMember(ownerScope, { email })
    const as = { db: db(), identity, userId: invitee.id }

    expect(await listMyInvitations(as)).toEqual({
      invitations: [],
      awaitingEmail: { email, organizations: 1 },
    })
    for (const answerIt of [acceptInvitation, declineInvitation]) {
      await expect(answerIt({ ...as, invitationId: invitation.id })).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: CONFIRM_EMAIL_FIRST,
      })
    }
    await expect(scope(invitee.id, org.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect((await listInvitations(ownerScope)).map((i) => i.status)).toEqual(['pending'])

    // Asking for the email sends Firebase's confirmation link to that address.
    expect(await sendInvitationEmailConfirmation(as)).toBe(email)
    expect((await sentLinks(email)).map((link) => link.requestType)).toEqual(['VERIFY_EMAIL'])
    await openConfirmationLink(email)

    const confirmed = await listMyInvitations(as)
    expect(confirmed.awaitingEmail).toBeNull()
    expect(confirmed.invitations.map((i) => i.organizationName)).toEqual(['Secret Recipes'])
    expect(await acceptInvitation({ ...as, invitationId: invitation.id })).toMatchObject({ id: org.id })
    expect((await scope(invitee.id, org.id)).role).toBe('member')
    // Nothing waits any more: no email is sent (the emulator forgets a link once it is used).
    expect(await sendInvitationEmailConfirmation(as)).toBeNull()
    expect(await sentLinks(email)).toEqual([])
  })

  it('sends nothing, and asks the provider nothing, for a user without invitations to their address', async () => {
    const user = await newEmulatorUser(db(), 'Nobody invited')
    let asked = 0
    const counting = {
      isEmailVerified: (uid: string) => ((asked += 1), identity.isEmailVerified(uid)),
      sendEmailVerification: identity.sendEmailVerification,
    }
    const as = { db: db(), identity: counting, userId: user.id }
    expect(await listMyInvitations(as)).toEqual({ invitations: [], awaitingEmail: null })
    expect(await sendInvitationEmailConfirmation(as)).toBeNull()
    expect(asked).toBe(0)
    expect(await sentLinks(user.email ?? '')).toEqual([])
  })

  it('an invitation by user id needs no confirmed address: the owner named the person, not an address', async () => {
    const { org, ownerScope } = await team('By Id')
    const invitee = await newEmulatorUser(db(), 'Named')
    const { invitation } = await addMember(ownerScope, invitee.firebaseUid)
    const as = { db: db(), identity, userId: invitee.id }
    expect((await listMyInvitations(as)).invitations.map((i) => i.organizationName)).toEqual(['By Id'])
    expect(await acceptInvitation({ ...as, invitationId: invitation.id })).toMatchObject({ id: org.id })
  })
})
