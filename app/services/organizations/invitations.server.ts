import { aliasedTable, and, asc, count, eq, notExists, or, sql, type SQL } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { invitations, memberships, organizations, users, type Invitation } from '~/db/schema'
import type { FirebaseIdentity } from '~/integrations/firebase/identity.server'
import {
  type AwaitingEmail,
  INVITED_USER_LABEL,
  MAX_PENDING_INVITATIONS,
  type OrganizationInvitation,
  type OrganizationSummary,
  type ReceivedInvitation,
} from '~/lib/organizations/schemas'
import { AppError } from '~/utils/errors'
import { requireOwner, type OrganizationScope } from './scope.server'
import { isUuid } from '~/lib/shared/input'

export const INVITATION_NOT_FOUND = 'Invitation not found'
export const ALREADY_A_MEMBER = 'This person is already a member of the organization'
export const CONFIRM_EMAIL_FIRST =
  'Please confirm your email address first: open the link in the email we sent you, then try again'

/**
 * Whether the invitee has proven the address an invitation names is theirs: asked of the identity provider at
 * the moment it matters, since the ID token's `email_verified` stays false until the next sign-in (issue 31).
 */
export type EmailOwnership = Pick<FirebaseIdentity, 'isEmailVerified'>
type Invitee = { db: Database; identity: EmailOwnership; userId: string }

/** Whom an owner invites: the address they typed, or a user who has signed in at least once, by uid. */
export type InviteTarget = { email: string } | { uid: string }

const inviter = aliasedTable(users, 'inviter')

function toOrganizationInvitation(row: Invitation, inviterName: string | null): OrganizationInvitation {
  return {
    id: row.id,
    organizationId: row.organizationId,
    email: row.email,
    invitee: row.email ?? INVITED_USER_LABEL,
    role: row.role,
    status: row.status,
    invitedBy: inviterName,
    createdAt: row.createdAt,
  }
}

async function invitationForOwners(db: Database, invitationId: string) {
  const [row] = await db
    .select({
      invitation: invitations,
      inviterName: inviter.displayName,
    })
    .from(invitations)
    .leftJoin(inviter, eq(inviter.id, invitations.invitedBy))
    .where(eq(invitations.id, invitationId))
  return toOrganizationInvitation(row.invitation, row.inviterName)
}

/**
 * Invites a person to the organization as a member (owners only). They become a member only by accepting.
 * Inviting someone already invited answers the pending invitation again (`created: false`); inviting a member
 * is a conflict. An invitation by uid stores no email, so the answer cannot reveal the invitee's address.
 */
export async function inviteMember(
  scope: OrganizationScope,
  target: InviteTarget,
): Promise<{ invitation: OrganizationInvitation; created: boolean }> {
  requireOwner(scope)
  const { db, organizationId } = scope
  let invitee: { email: string } | { invitedUserId: string }
  let isMember: SQL | undefined
  if ('uid' in target) {
    const [user] = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.firebaseUid, target.uid))
      .limit(1)
    if (!user) throw new AppError('NOT_FOUND', 'User not found')
    invitee = { invitedUserId: user.id }
    isMember = eq(memberships.userId, user.id)
  } else {
    const email = target.email.trim().toLowerCase()
    invitee = { email }
    isMember = sql`lower(${users.email}) = ${email}`
  }

  const [member] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), isMember))
    .limit(1)
  if (member) throw new AppError('CONFLICT', ALREADY_A_MEMBER)

  const samePending = and(
    eq(invitations.organizationId, organizationId),
    eq(invitations.status, 'pending'),
    'email' in invitee
      ? eq(invitations.email, invitee.email)
      : eq(invitations.invitedUserId, invitee.invitedUserId),
  )
  const [existing] = await db.select({ id: invitations.id }).from(invitations).where(samePending).limit(1)
  if (existing) return { invitation: await invitationForOwners(db, existing.id), created: false }

  const [{ pending }] = await db
    .select({ pending: count() })
    .from(invitations)
    .where(and(eq(invitations.organizationId, organizationId), eq(invitations.status, 'pending')))
  if (pending >= MAX_PENDING_INVITATIONS) {
    throw new AppError(
      'CONFLICT',
      `An organization can have at most ${MAX_PENDING_INVITATIONS} pending invitations: revoke some first`,
    )
  }

  // Two owners inviting the same person at once: the unique index keeps one, and both get it.
  const [inserted] = await db
    .insert(invitations)
    .values({
      organizationId,
      invitedBy: scope.userId,
      role: 'member',
      ...invitee,
      // The worker emails the invited address (docs/decisions/068).
      emailStatus: 'email' in invitee ? 'pending' : 'none',
    })
    .onConflictDoNothing()
    .returning({ id: invitations.id })
  if (inserted) return { invitation: await invitationForOwners(db, inserted.id), created: true }
  const [raced] = await db.select({ id: invitations.id }).from(invitations).where(samePending).limit(1)
  return { invitation: await invitationForOwners(db, raced.id), created: false }
}

/** The organization's pending invitations, oldest first (owners only). */
export async function listInvitations(scope: OrganizationScope): Promise<OrganizationInvitation[]> {
  requireOwner(scope)
  const rows = await scope.db
    .select({
      invitation: invitations,
      inviterName: inviter.displayName,
    })
    .from(invitations)
    .leftJoin(inviter, eq(inviter.id, invitations.invitedBy))
    .where(and(eq(invitations.organizationId, scope.organizationId), eq(invitations.status, 'pending')))
    .orderBy(asc(invitations.createdAt), asc(invitations.id))
  return rows.map((r) => toOrganizationInvitation(r.invitation, r.inviterName))
}

/** Withdraws a pending invitation (owners only); another organization's invitation is not found. */
export async function revokeInvitation(scope: OrganizationScope, invitationId: string): Promise<void> {
  requireOwner(scope)
  if (!isUuid(invitationId)) throw new AppError('NOT_FOUND', INVITATION_NOT_FOUND)
  const [invitation] = await scope.db
    .select({ status: invitations.status })
    .from(invitations)
    .where(and(eq(invitations.id, invitationId), eq(invitations.organizationId, scope.organizationId)))
  if (!invitation) throw new AppError('NOT_FOUND', INVITATION_NOT_FOUND)
  const [revoked] = await scope.db
    .update(invitations)
    .set({ status: 'revoked', respondedAt: new Date() })
    .where(and(eq(invitations.id, invitationId), eq(invitations.status, 'pending')))
    .returning({ id: invitations.id })
  if (!revoked) throw new AppError('CONFLICT', `This invitation was already ${invitation.status}`)
}

/** The user an invitation may be for: their uid, and the address their sign-in account carries. */
async function inviteeAccount(db: Database, userId: string) {
  const [user] = await db
    .select({ email: users.email, firebaseUid: users.firebaseUid })
    .from(users)
    .where(eq(users.id, userId))
  if (!user) throw new AppError('NOT_FOUND', INVITATION_NOT_FOUND)
  return { ...user, email: user.email?.trim().toLowerCase() || null }
}

/** The invitations addressed to a user: by their user id, or by the email their sign-in account carries. */
function addressedTo(userId: string, email: string | null) {
  return email
    ? or(eq(invitations.invitedUserId, userId), eq(invitations.email, email))
    : eq(invitations.invitedUserId, userId)
}

/**
 * The user's pending invitations, one per organization, oldest first; organizations they already belong to are
 * left out. The invitee sees the organization and who invited them (by name), never other invitees.
 * An invitation by email names an address, not a person: until the account proves the address is its own, such
 * an organization is only counted (`awaitingEmail`), not named, so that signing up with someone else's address
 * reveals nothing. The identity provider is asked only when there is such an invitation.
 */
export async function listMyInvitations({ db, identity, userId }: Invitee): Promise<{
  invitations: ReceivedInvitation[]
  awaitingEmail: AwaitingEmail | null
}> {
  const account = await inviteeAccount(db, userId)
  const rows = await db
    .select({
      id: invitations.id,
      organizationId: invitations.organizationId,
      organizationName: organizations.name,
      role: invitations.role,
      invitedBy: inviter.displayName,
      createdAt: invitations.createdAt,
      invitedUserId: invitations.invitedUserId,
    })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .leftJoin(inviter, eq(inviter.id, invitations.invitedBy))
    .where(
      and(
        eq(invitations.status, 'pending'),
        addressedTo(userId, account.email),
        notExists(
          db
            .select({ one: sql`1` })
            .from(memberships)
            .where(
              and(eq(memberships.organizationId, invitations.organizationId), eq(memberships.userId, userId)),
            ),
        ),
      ),
    )
    .orderBy(asc(invitations.createdAt), asc(invitations.id))
  const namedById = new Set(rows.filter((r) => r.invitedUserId === userId).map((r) => r.organizationId))
  const byEmailOnly = new Set(rows.map((r) => r.organizationId).filter((id) => !namedById.has(id)))
  const proven = byEmailOnly.size === 0 || (await identity.isEmailVerified(account.firebaseUid))
  const firstPerOrganization = new Map<string, ReceivedInvitation>()
  for (const { invitedUserId: _, ...row } of rows) {
    if (!proven && byEmailOnly.has(row.organizationId)) continue
    if (!firstPerOrganization.has(row.organizationId)) firstPerOrganization.set(row.organizationId, row)
  }
  return {
    invitations: [...firstPerOrganization.values()],
    awaitingEmail:
      !proven && account.email ? { email: account.email, organizations: byEmailOnly.size } : null,
  }
}

/**
 * Emails the user the link that confirms their address, if invitations to it are waiting for that (and sends
 * nothing otherwise, so that it cannot be used to send mail for any other reason). Answers the address written
 * to, or null when nothing was sent.
 */
export async function sendInvitationEmailConfirmation(
  deps: Omit<Invitee, 'identity'> & {
    identity: Pick<FirebaseIdentity, 'isEmailVerified' | 'sendEmailVerification'>
  },
): Promise<string | null> {
  const { awaitingEmail } = await listMyInvitations(deps)
  if (!awaitingEmail) return null
  const { firebaseUid } = await inviteeAccount(deps.db, deps.userId)
  await deps.identity.sendEmailVerification(firebaseUid)
  return awaitingEmail.email
}

const RESPONDED: Record<Invitation['status'], string> = {
  pending: 'This invitation is pending',
  accepted: 'This invitation was already accepted',
  declined: 'This invitation was already declined',
  revoked: 'This invitation was withdrawn by the organization',
}

/**
 * The invitee's answer. Only the person invited can answer (anyone else is told it does not exist); every
 * pending invitation of the same organization to them is answered with it. An invitation by email is answered
 * only once the account has confirmed that address (unless the organization also invited the user by id).
 * Declining needs it too, though it grants nothing: otherwise whoever signed up with an address first could
 * turn down invitations meant for its owner.
 */
async function answerInvitation(
  { db, identity, userId, invitationId }: Invitee & { invitationId: string },
  answer: 'accepted' | 'declined',
) {
  if (!isUuid(invitationId)) throw new AppError('NOT_FOUND', INVITATION_NOT_FOUND)
  const account = await inviteeAccount(db, userId)
  const mine = addressedTo(userId, account.email)
  const [addressed] = await db
    .select({ organizationId: invitations.organizationId, invitedUserId: invitations.invitedUserId })
    .from(invitations)
    .where(and(eq(invitations.id, invitationId), mine))
  if (!addressed) throw new AppError('NOT_FOUND', INVITATION_NOT_FOUND)
  if (addressed.invitedUserId !== userId) {
    const [byId] = await db
      .select({ id: invitations.id })
      .from(invitations)
      .where(
        and(
          eq(invitations.organizationId, addressed.organizationId),
          eq(invitations.invitedUserId, userId),
          eq(invitations.status, 'pending'),
        ),
      )
      .limit(1)
    if (!byId && !(await identity.isEmailVerified(account.firebaseUid))) {
      throw new AppError('FORBIDDEN', CONFIRM_EMAIL_FIRST)
    }
  }
  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .select()
      .from(invitations)
      .where(and(eq(invitations.id, invitationId), mine))
      .for('update')
    if (!invitation) throw new AppError('NOT_FOUND', INVITATION_NOT_FOUND)
    if (invitation.status !== 'pending') throw new AppError('CONFLICT', RESPONDED[invitation.status])
    if (answer === 'accepted') {
      await tx
        .insert(memberships)
        .values({ organizationId: invitation.organizationId, userId, role: invitation.role })
        .onConflictDoNothing()
    }
    await tx
      .update(invitations)
      .set({ status: answer, respondedAt: new Date() })
      .where(
        and(
          eq(invitations.organizationId, invitation.organizationId),
          eq(invitations.status, 'pending'),
          mine,
        ),
      )
    return invitation
  })
}

/** Accepts an invitation: the invitee becomes a member and gets the organization's summary. */
export async function acceptInvitation(
  args: Invitee & { invitationId: string },
): Promise<OrganizationSummary> {
  const invitation = await answerInvitation(args, 'accepted')
  const [organization] = await args.db
    .select({
      id: organizations.id,
      name: organizations.name,
      plan: organizations.plan,
      role: memberships.role,
    })
    .from(organizations)
    .innerJoin(
      memberships,
      and(eq(memberships.organizationId, organizations.id), eq(memberships.userId, args.userId)),
    )
    .where(eq(organizations.id, invitation.organizationId))
  return organization
}

/** Declines an invitation; the organization learns only that it was declined. */
export async function declineInvitation(args: Invitee & { invitationId: string }): Promise<void> {
  await answerInvitation(args, 'declined')
}
