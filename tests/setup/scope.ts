import { randomUUID } from 'node:crypto'
import type { Database } from '~/db/client.server'
import { upsertUser } from '~/services/auth/users.server'
import { createOrganization } from '~/services/organizations/organizations.server'
import { requireOrganizationScope } from '~/services/organizations/scope.server'

/** A new user who owns a new organization, and their scope in it: each test makes its own tenant. */
export async function newOwnerScope(db: Database, displayName = 'Ada') {
  const user = await upsertUser({
    db,
    firebaseUid: `uid-${randomUUID()}`,
    email: `${randomUUID()}@example.com`,
    displayName,
  })
  const org = await createOrganization({ db, userId: user.id, name: 'Org' })
  return requireOrganizationScope({ db, userId: user.id, organizationId: org.id })
}
