import { eq } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { users, type User } from '~/db/schema'
import type { VerifiedToken } from '~/integrations/firebase/identity.server'
import { listOrganizations } from '~/services/organizations/organizations.server'
import { upsertUser } from './users.server'

/** Our user behind a verified ID token: looked up, and created on first sight. */
export async function userForToken({ db, token }: { db: Database; token: VerifiedToken }): Promise<User> {
  const [existing] = await db.select().from(users).where(eq(users.firebaseUid, token.uid)).limit(1)
  if (existing) return existing
  return upsertUser({ db, firebaseUid: token.uid, email: token.email, displayName: token.name })
}

/** The profile the product API returns: who the user is and the organizations they work in. */
export async function getProfile({ db, user }: { db: Database; user: User }) {
  return {
    uid: user.firebaseUid,
    email: user.email,
    displayName: user.displayName,
    createdAt: user.createdAt,
    organizations: await listOrganizations({ db, userId: user.id }),
  }
}
