import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import * as schema from './schema'

export type Schema = typeof schema
export type Database = PgDatabase<PgQueryResultHKT, Schema>

export type DatabaseHandle = {
  db: Database
  driver: 'pglite' | 'postgres'
  /** The PGlite instance, when that is the driver (pg-boss needs it). */
  pglite?: PGlite
  /** The pool, when the driver is PostgreSQL (pg-boss needs it). */
  pool?: pg.Pool
  close(): Promise<void>
}

export type DatabaseOptions = {
  /** PostgreSQL connection string; `memory://` opens an in-memory PGlite; unset opens PGlite under dataDir. */
  databaseUrl?: string
  dataDir: string
  migrationsFolder?: string
  /**
   * An idle PostgreSQL connection failed (the server restarted, an administrator or `DROP DATABASE ... FORCE` ended
   * it, the network dropped): the pool has already discarded it and opens another for the next query. node-postgres
   * throws such an error out of the process when the pool has no listener, so one is always attached.
   */
  onPoolError?: (error: Error) => void
  /**
   * A new PGlite database's starting data directory (a PGlite dumpDataDir) instead of an empty one. Tests pass one
   * made once: PGlite's initdb is most of the 4 s a new database takes to open.
   */
  pgliteDataDir?: Blob
}

/** PGlite's contrib extensions the migrations create (the knowledge search's typo correction and accents). */
const extensions = { pg_trgm, fuzzystrmatch, unaccent }

const MIGRATION_LOCK = 727_271_001
const defaultMigrationsFolder = () => path.resolve('app/db/migrations')

/** Opens the database named by the configuration and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const migrationsFolder = options.migrationsFolder ?? defaultMigrationsFolder()
  if (options.databaseUrl && !options.databaseUrl.startsWith('memory://')) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 })
    pool.on('error', (error) => options.onPoolError?.(error))
    const client = await pool.connect()
    try {
      // Several processes may start at once: one migrates, the others wait for it.
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder })
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined)
      client.release()
    }
    return { db: drizzlePg(pool, { schema }), driver: 'postgres', pool, close: () => pool.end() }
  }

  let pglite: PGlite
  if (options.databaseUrl?.startsWith('memory://')) {
    pglite = new PGlite({ extensions, loadDataDir: options.pgliteDataDir })
  } else {
    const dir = path.join(options.dataDir, 'pglite')
    const fresh = !existsSync(dir)
    mkdirSync(options.dataDir, { recursive: true })
    pglite = new PGlite(dir, { extensions, loadDataDir: fresh ? options.pgliteDataDir : undefined })
  }
  await pglite.waitReady
  const db = drizzlePglite(pglite, { schema })
  await migratePglite(db, { migrationsFolder })
  return { db, driver: 'pglite', pglite, close: () => pglite.close() }
}
