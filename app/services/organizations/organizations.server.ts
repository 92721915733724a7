import { and, asc, count, eq } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { memberships, organizations, sessions, users, type User } from '~/db/schema'
import { ANALYTICS_TEXTS, timeZoneSchema } from '~/lib/analytics/analytics'
import type { OrganizationSummary } from '~/lib/organizations/schemas'
import { AppError } from '~/utils/errors'
import { inviteMember } from './invitations.server'
import {
  ORGANIZATION_NOT_FOUND,
  requireOrganizationScope,
  requireOwner,
  type OrganizationScope,
} from './scope.server'

export const LAST_OWNER = 'An organization needs at least one owner'

const summaryColumns = {
  id: organizations.id,
  name: organizations.name,
  plan: organizations.plan,
  role: memberships.role,
}

/**
 * The creator becomes its owner; a new organization is on the free plan, in `timeZone` (a canonical zone, as
 * timeZoneSchema gives it) or the default UTC.
 */
export async function createOrganization({
  db,
  userId,
  name,
  timeZone,
}: {
  db: Database
  userId: string
  name: string
  timeZone?: string
}): Promise<OrganizationSummary> {
  return db.transaction(async (tx) => {
    const [organization] = await tx
      .insert(organizations)
      .values({ name, plan: 'free', ...(timeZone && { timeZone }) })
      .returning()
    await tx.insert(memberships).values({ organizationId: organization.id, userId, role: 'owner' })
    return { id: organization.id, name: organization.name, plan: organization.plan, role: 'owner' }
  })
}

/** The user's organizations, oldest membership first (so "the first" is stable). */
export async function listOrganizations({
  db,
  userId,
}: {
  db: Database
  userId: string
}): Promise<OrganizationSummary[]> {
  return db
    .select(summaryColumns)
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt), asc(organizations.name))
}

export async function getOrganization(scope: OrganizationScope) {
  const [organization] = await scope.db
    .select({
      ...summaryColumns,
      timeZone: organizations.timeZone,
      autoResolveHours: organizations.autoResolveHours,
      mediaRetentionDays: organizations.mediaRetentionDays,
      createdAt: organizations.createdAt,
      updatedAt: organizations.updatedAt,
    })
    .from(organizations)
    .innerJoin(
      memberships,
      and(eq(memberships.organizationId, organizations.id), eq(memberships.userId, scope.userId)),
    )
    .where(eq(organizations.id, scope.organizationId))
  return organization
}

export async function renameOrganization(scope: OrganizationScope, name: string) {
  requireOwner(scope)
  await scope.db
    .update(organizations)
    .set({ name, updatedAt: new Date() })
    .where(eq(organizations.id, scope.organizationId))
  return getOrganization(scope)
}

/**
 * Sets the IANA time zone the dashboard counts days and hours in (owners only); kept as Intl spells it
 * ("europe/berlin" is Europe/Berlin). One Intl does not know is refused.
 */
export function updateOrganizationTimeZone(scope: OrganizationScope, timeZone: string) {
  return updateOrganization(scope, { timeZone })
}

/**
 * The API's PATCH: the name, the time zone, the hours after which the AI resolves its quiet conversations (0:
 * never), in one statement (owners only).
 */
export async function updateOrganization(
  scope: OrganizationScope,
  changes: { name?: string; timeZone?: string; autoResolveHours?: number; mediaRetentionDays?: number },
) {
  requireOwner(scope)
  let timeZone: string | undefined
  if (changes.timeZone !== undefined) {
    const parsed = timeZoneSchema.safeParse(changes.timeZone)
    if (!parsed.success) throw new AppError('VALIDATION_ERROR', ANALYTICS_TEXTS.timeZoneInvalid)
    timeZone = parsed.data
  }
  await scope.db
    .update(organizations)
    .set({
      ...(changes.name !== undefined && { name: changes.name }),
      ...(timeZone !== undefined && { timeZone }),
      ...(changes.autoResolveHours !== undefined && { autoResolveHours: changes.autoResolveHours }),
      ...(changes.mediaRetentionDays !== undefined && { mediaRetentionDays: changes.mediaRetentionDays }),
      updatedAt: new Date(),
    })
    .where(eq(organizations.id, scope.organizationId))
  return getOrganization(scope)
}

export async function deleteOrganization(scope: OrganizationScope): Promise<void> {
  requireOwner(scope)
  await scope.db.delete(organizations).where(eq(organizations.id, scope.organizationId))
}

export async function listMembers(scope: OrganizationScope) {
  return scope.db
    .select({
      uid: users.firebaseUid,
      email: users.email,
      displayName: users.displayName,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, scope.organizationId))
    .orderBy(asc(memberships.createdAt))
}

async function findUserByUid(db: Database, uid: string): Promise<User> {
  const [user] = await db.select().from(users).where(eq(users.firebaseUid, uid)).limit(1)
  if (!user) throw new AppError('NOT_FOUND', 'User not found')
  return user
}

/**
 * The spec's "add member" call, by the user id (uid) of a person who has signed in at least once: it invites
 * them, since nobody joins an organization without accepting. The answer does not carry their email.
 */
export function addMember(scope: OrganizationScope, memberUid: string) {
  return inviteMember(scope, { uid: memberUid })
}

/** Holds the organization's row until the transaction ends, so that two departures cannot both pass the owner check. */
async function lockOrganization(tx: Database, organizationId: string) {
  await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for('update')
}

async function requireAnotherOwner(tx: Database, organizationId: string) {
  const [{ owners }] = await tx
    .select({ owners: count() })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 'owner')))
  if (owners <= 1) throw new AppError('CONFLICT', LAST_OWNER)
}

export async function removeMember(scope: OrganizationScope, memberUid: string) {
  requireOwner(scope)
  const user = await findUserByUid(scope.db, memberUid)
  await scope.db.transaction(async (tx) => {
    await lockOrganization(tx, scope.organizationId)
    const [target] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.organizationId, scope.organizationId), eq(memberships.userId, user.id)))
    if (!target) throw new AppError('NOT_FOUND', 'Member not found')
    if (target.role === 'owner') await requireAnotherOwner(tx, scope.organizationId)
    await tx
      .delete(memberships)
      .where(and(eq(memberships.organizationId, scope.organizationId), eq(memberships.userId, user.id)))
  })
  return listMembers(scope)
}

/**
 * The caller leaves the organization. Any member may; the last owner may not (the organization would have no
 * one to manage it). A session that worked in it falls back to the user's first organization on its next
 * request (resolveCurrentOrganization).
 */
export async function leaveOrganization(scope: OrganizationScope): Promise<void> {
  await scope.db.transaction(async (tx) => {
    await lockOrganization(tx, scope.organizationId)
    const [membership] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.organizationId, scope.organizationId), eq(memberships.userId, scope.userId)))
    if (!membership) throw new AppError('NOT_FOUND', ORGANIZATION_NOT_FOUND)
    if (membership.role === 'owner') await requireAnotherOwner(tx, scope.organizationId)
    await tx
      .delete(memberships)
      .where(and(eq(memberships.organizationId, scope.organizationId), eq(memberships.userId, scope.userId)))
  })
}

/**
 * The organization a session works in: the stored one while the user still belongs to it, else the first.
 * Stores the choice back so that the next request agrees.
 */
export async function resolveCurrentOrganization({
  db,
  userId,
  sessionId,
  storedId,
}: {
  db: Database
  userId: string
  sessionId: string
  storedId: string | null
}): Promise<{ organizations: OrganizationSummary[]; current: OrganizationSummary | undefined }> {
  const list = await listOrganizations({ db, userId })
  const current = list.find((o) => o.id === storedId) ?? list[0]
  if ((current?.id ?? null) !== storedId) {
    await db
      .update(sessions)
      .set({ currentOrganizationId: current?.id ?? null })
      .where(eq(sessions.id, sessionId))
  }
  return { organizations: list, current }
}

/** Makes an organization the session's current one; the membership is checked first. */
export async function switchOrganization({
  db,
  userId,
  sessionId,
  organizationId,
}: {
  db: Database
  userId: string
  sessionId: string
  organizationId: string
}): Promise<void> {
  const scope = await requireOrganizationScope({ db, userId, organizationId })
  await db
    .update(sessions)
    .set({ currentOrganizationId: scope.organizationId })
    .where(eq(sessions.id, sessionId))
}
