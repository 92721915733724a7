import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { openDatabase } from './client.server'
import { rowsOf } from './rows.server'
import { tempDirsOf } from '../../tests/setup/temp-dirs'

const onPostgres = Boolean(process.env.DATABASE_URL)
const tempDir = tempDirsOf('replypilot-pool-')

describe('openDatabase on PostgreSQL', () => {
  it.runIf(onPostgres)(
    'survives an idle connection ended by the server: reports it, and the next query gets another',
    async () => {
      const applicationName = `pool error ${randomUUID().slice(0, 8)}`
      const url = new URL(process.env.DATABASE_URL ?? '')
      url.searchParams.set('application_name', applicationName)
      const errors: Error[] = []
      const handle = await openDatabase({
        databaseUrl: url.toString(),
        dataDir: tempDir(),
        onPoolError: (error) => errors.push(error),
      })
      try {
        await handle.db.execute(sql`select 1`)
        // The pool's connection is idle now; the server ends it, as a restart or DROP DATABASE ... FORCE does.
        const admin = new pg.Client({ connectionString: process.env.DATABASE_URL })
        await admin.connect()
        try {
          const ended = await admin.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
            [applicationName],
          )
          expect(ended.rowCount).toBeGreaterThan(0)
        } finally {
          await admin.end()
        }
        for (let waited = 0; errors.length === 0 && waited < 5_000; waited += 20) {
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        expect(errors.map((error) => ('code' in error ? error.code : undefined))).toContain('57P01')
        expect(rowsOf<{ one: number }>(await handle.db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }])
      } finally {
        await handle.close()
      }
    },
    30_000,
  )
})
