#!/usr/bin/env node
/**
 * `npm run drill [-- <file or filter>]`: the drills (tests/drills, docs/decisions/021) on a throwaway PostgreSQL
 * server, without the rest of `npm test` (where they run in the PostgreSQL pass). DATABASE_URL, when set, is used
 * instead of a throwaway server. Arguments go to vitest, e.g. `npm run drill -- tests/drills/burst-crash.test.ts`.
 */
import { startThrowawayPostgres } from './lib/postgres.js'
import { buildAppIfMissing, run } from './lib/processes.js'
import path from 'node:path'

const args = process.argv.slice(2)
let postgres
let exitCode = 0
try {
  // The web drill runs the production build, as production does.
  buildAppIfMissing()
  let databaseUrl = process.env.DATABASE_URL
  if (!databaseUrl) {
    postgres = await startThrowawayPostgres()
    databaseUrl = postgres.url
  }
  run(path.resolve('node_modules/.bin/vitest'), ['run', ...(args.length ? args : ['tests/drills'])], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
  })
} catch (error) {
  console.error(`\n✘ ${error instanceof Error ? error.message : error}`)
  exitCode = 1
} finally {
  await postgres?.stop()
}
process.exit(exitCode)
