import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { openDatabase, type Database, type DatabaseHandle } from '~/db/client.server'

/**
 * The database the tests run against: the real PostgreSQL named by DATABASE_URL when set (npm test starts a
 * throwaway cluster for a second pass), otherwise an in-memory PGlite. Tests make their own rows and never
 * depend on an empty database.
 */
export function openTestDatabase(): Promise<DatabaseHandle> {
  return openDatabase({
    databaseUrl: process.env.DATABASE_URL ?? 'memory://',
    dataDir: mkdtempSync(path.join(tmpdir(), 'replypilot-test-')),
  })
}

/** A pg-boss schema of its own: test files share one PostgreSQL database and must not work each other's jobs. */
export const newQueueSchema = () => `pgboss_${randomUUID().replaceAll('-', '').slice(0, 12)}`

/**
 * The test database of a file's tests, opened before them and closed after them (register it at the top level or
 * in a describe); the function returns its `db` once open.
 */
export function withTestDatabase(): () => Database {
  let handle: DatabaseHandle | undefined
  beforeAll(async () => {
    handle = await openTestDatabase()
  })
  afterAll(() => handle?.close())
  return () => {
    if (!handle) throw new Error('The test database opens in beforeAll')
    return handle.db
  }
}
