import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PGlite } from '@electric-sql/pglite'
import { openDatabase, type DatabaseHandle } from '../../app/db/client.server'
import type { Database } from '../../app/db/client.server'
import { sessionCookieWith } from '../../app/http/auth.server'
import { rollUpAnalytics } from '../../app/services/analytics/rollup.server'
import { createSession } from '../../app/services/auth/sessions.server'
import { seedAnalytics, type SeededOrg, type SeedSizes } from './analytics-seed'

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../app/db/migrations')

/**
 * A data directory's embedded database brought to the current schema and seeded (analytics-seed), handed to
 * `then` for the caller's own touches, and closed after.
 */
export async function withSeededDataDir<T>(
  dataDir: string,
  sizes: SeedSizes,
  then: (seeded: { handle: DatabaseHandle; pglite: PGlite; org: SeededOrg }) => Promise<T>,
): Promise<T> {
  const handle = await openDatabase({ dataDir, migrationsFolder: MIGRATIONS })
  try {
    const pglite = handle.pglite
    if (!pglite) throw new Error('Expected the embedded database')
    console.log('seeding:')
    const org = await seedAnalytics(async (text) => (await pglite.exec(text)).at(-1)?.rows ?? [], sizes)
    return await then({ handle, pglite, org })
  } finally {
    await handle.close()
  }
}

/** The analytics rolled up as the job would have, and the owner's session cookie (the name=value pair only). */
export async function ownerCookie(db: Database, userId: string, sessionSecret: string): Promise<string> {
  await rollUpAnalytics(db)
  const session = await createSession({ db, userId })
  const cookie = sessionCookieWith({ sessionSecret, secureCookies: false })
  return (await cookie.serialize(session.id)).split(';')[0]
}
