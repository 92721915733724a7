import { and, asc, eq, sql } from 'drizzle-orm'
import { memberships, users } from '~/db/schema'
import type { MemberOption } from '~/lib/organizations/schemas'
import type { OrganizationScope } from './scope.server'

const memberName = sql<string>`coalesce(${users.displayName}, ${users.email}, '')`

/** The organization's members by name, with their user ids for the server's own use (never sent to a browser). */
export async function listMemberOptions(
  scope: OrganizationScope,
): Promise<(MemberOption & { id: string })[]> {
  return scope.db
    .select({
      id: users.id,
      uid: users.firebaseUid,
      name: memberName,
      me: sql<boolean>`${users.id} = ${scope.userId}`,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, scope.organizationId))
    .orderBy(asc(memberName), asc(users.firebaseUid))
}

/** The member of the scope's organization with this uid; null for anyone else (another organization's, unknown). */
export async function findMember(
  scope: OrganizationScope,
  uid: string,
): Promise<{ id: string; uid: string; name: string } | null> {
  const [member] = await scope.db
    .select({ id: users.id, uid: users.firebaseUid, name: memberName })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, scope.organizationId), eq(users.firebaseUid, uid)))
    .limit(1)
  return member ?? null
}
