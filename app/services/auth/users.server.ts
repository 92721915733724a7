import { sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { users, type User } from '~/db/schema'

/** Mirrors an identity-provider account into our users table, keeping name and email current. */
export async function upsertUser({
  db,
  firebaseUid,
  email,
  displayName,
}: {
  db: Database
  firebaseUid: string
  email: string | undefined
  displayName: string | undefined
}): Promise<User> {
  const [user] = await db
    .insert(users)
    .values({ firebaseUid, email: email ?? null, displayName: displayName ?? null })
    .onConflictDoUpdate({
      target: users.firebaseUid,
      set: {
        email: sql`coalesce(excluded.email, ${users.email})`,
        displayName: sql`coalesce(excluded.display_name, ${users.displayName})`,
        updatedAt: sql`now()`,
      },
    })
    .returning()
  return user
}
