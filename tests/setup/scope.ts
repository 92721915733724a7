import { randomUUID } from 'node:crypto'
import type { Database } from '~/db/client.server'
import { upsertUser } from '~/services/auth/users.server'
import { createOrganization } from '~/services/organizations/organizations.server'
import { requireOrganizationScope } from '~/services/organizations/scope.server'

/** A user of our own: a fresh Firebase uid and, unless given, a fresh address. */
export function newTestUser(
  db: Database,
  displayName = 'U',
  email = `${displayName.toLowerCase().replaceAll(' ', '-')}-${randomUUID()}@example.com`,
) {
  return upsertUser({ db, firebaseUid: `uid-${randomUUID()}`, email, displayName })
}

/** A new user who owns a new organization, and their scope in it: each test makes its own tenant. */
export async function newOwnerScope(db: Database, displayName = 'Ada', organizationName = 'Org') {
  const user = await newTestUser(db, displayName)
  const org = await createOrganization({ db, userId: user.id, name: organizationName })
  return requireOrganizationScope({ db, userId: user.id, organizationId: org.id })
}
