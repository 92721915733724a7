import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll } from 'vitest'
import { openDatabase, type Database, type DatabaseHandle } from '~/db/client.server'

const usesPglite = () => !process.env.DATABASE_URL || process.env.DATABASE_URL.startsWith('memory://')

/**
 * A PGlite data directory just after initdb, made once per PGlite version and kept in the system's temporary
 * folder; undefined on PostgreSQL. initdb is about 4 s of the 4.5 s an in-memory PGlite takes to open, and a
 * test run opens over a hundred; each starts from a copy of this one instead (the migrations still run).
 */
export async function pgliteDataDir(): Promise<Blob | undefined> {
  if (!usesPglite()) return undefined
  const { version } = JSON.parse(
    readFileSync(path.resolve('node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string }
  const file = path.join(tmpdir(), `replypilot-pglite-${version}-initdb.tar`)
  if (existsSync(file)) return new Blob([readFileSync(file)])
  const pglite = new PGlite()
  await pglite.waitReady
  const dump = await pglite.dumpDataDir('none')
  await pglite.close()
  // Written aside, then renamed: test files starting at once never read a half-written copy.
  const partial = `${file}.${process.pid}.${randomUUID()}`
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()))
  renameSync(partial, file)
  return dump
}

/**
 * The database the tests run against: the real PostgreSQL named by DATABASE_URL when set (npm test starts a
 * throwaway cluster for a second pass), otherwise an in-memory PGlite. Tests make their own rows and never
 * depend on an empty database.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  // An empty DATABASE_URL (npm test's PGlite pass sets one) means in memory too: PGlite under the data directory
  // wrote about 200 MB per test file to disk, never removed, until a long-lived machine's disk was full.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'replypilot-test-'))
  const handle = await openDatabase({
    databaseUrl: process.env.DATABASE_URL || 'memory://',
    dataDir,
    pgliteDataDir: await pgliteDataDir(),
  })
  return {
    ...handle,
    async close() {
      await handle.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
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
