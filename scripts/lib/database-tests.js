import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

/** What a test file imports or names when it reaches a database: the test rigs that open one, or the db module. */
const TOUCHES_DATABASE =
  /tests\/setup\/(database|pipeline|runtime|scope|tenant|route-server|app-rig|knowledge|meta-tenant|plans|email-verification|identity)['.]|~\/db\/|\.\.\/db\/|\.\/db\/|openDatabase|DATABASE_URL|pglite/i

const TEST_FILE = /\.test\.tsx?$/

function* testFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) yield* testFiles(full)
    } else if (TEST_FILE.test(entry.name)) yield full
  }
}

/**
 * The test files of `roots` that reach a database, for the PostgreSQL pass: a test that never opens one (a
 * schema, a component, a pure function) shows nothing new on PostgreSQL, and its second run only costs time.
 */
export function databaseTestFiles(roots) {
  const files = []
  for (const root of roots) {
    for (const file of testFiles(root)) {
      if (TOUCHES_DATABASE.test(readFileSync(file, 'utf8'))) files.push(file)
    }
  }
  return files.sort()
}
