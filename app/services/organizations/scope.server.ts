import { and, eq } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { memberships, type MembershipRole } from '~/db/schema'
import { AppError } from '~/utils/errors'
import { isUuid } from '~/lib/shared/input'

const brand: unique symbol = Symbol('OrganizationScope')

/**
 * Proof that a user belongs to an organization. Every organization-scoped service takes one, and the only way to
 * get one is `requireOrganizationScope`, which checks the membership: tenant isolation is a property of the types,
 * not of each route remembering to check.
 */
export type OrganizationScope = {
  readonly [brand]: true
  readonly db: Database
  readonly userId: string
  readonly organizationId: string
  readonly role: MembershipRole
}

export const ORGANIZATION_NOT_FOUND = 'Organization not found'

/** The caller's scope in an organization; an organization they are not in is reported as not found. */
export async function requireOrganizationScope({
  db,
  userId,
  organizationId,
}: {
  db: Database
  userId: string
  organizationId: string
}): Promise<OrganizationScope> {
  if (!isUuid(organizationId)) throw new AppError('NOT_FOUND', ORGANIZATION_NOT_FOUND)
  const [membership] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)))
    .limit(1)
  if (!membership) throw new AppError('NOT_FOUND', ORGANIZATION_NOT_FOUND)
  return { [brand]: true, db, userId, organizationId, role: membership.role }
}

export function requireOwner(scope: OrganizationScope): void {
  if (scope.role !== 'owner') {
    throw new AppError('FORBIDDEN', 'Only an owner of the organization can do this')
  }
}
