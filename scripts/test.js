#!/usr/bin/env node
/**
 * `npm test`: every test, as CI runs it.
 *   lint → function sizes → typecheck → vitest on PGlite → build → vitest on a throwaway PostgreSQL server (the
 *   tests that reach a database) → Playwright.
 * Installs Debian's chromium and postgresql when missing (as root), starts the Firebase Auth emulator once for
 * all steps, and ends with one line "N passed, N failed, N skipped", after a line naming the end-to-end tests that
 * passed only on a retry when there are any.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { ensureAuthEmulator } from './lib/emulator.js'
import { databaseTestFiles } from './lib/database-tests.js'
import { closingLines, flakyTests, playwrightCounts } from './lib/playwright-report.js'
import { createWorkerDatabases, startThrowawayPostgres } from './lib/postgres.js'
import { run } from './lib/processes.js'
import { ensureSystemPackages } from './lib/system-packages.js'

const reports = path.resolve('tests/.tmp/reports')
rmSync(reports, { recursive: true, force: true })
mkdirSync(reports, { recursive: true })

const node = process.execPath
const bin = (name) => path.resolve('node_modules/.bin', name)
const counts = { passed: 0, failed: 0, skipped: 0 }
const flaky = []

function step(title, fn) {
  const started = Date.now()
  console.log(`\n▶ ${title}`)
  fn()
  console.log(`✔ ${title} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
}

/**
 * Runs a test runner and adds its JSON report to the counts (and its flaky tests to the list); a run that failed
 * with no failed test counts one.
 */
function runCounted(command, args, env, file, pick) {
  let failure
  try {
    run(command, args, { env })
  } catch (error) {
    failure = error
  }
  let got = { passed: 0, failed: 0, skipped: 0 }
  try {
    got = pick(JSON.parse(readFileSync(file, 'utf8')))
  } catch {
    // No report: the runner did not get as far as testing.
  }
  if (failure && !got.failed) got.failed = 1
  for (const key of Object.keys(counts)) counts[key] += got[key] ?? 0
  flaky.push(...(got.flaky ?? []))
  if (failure) throw failure
}

function vitest(label, env, files = [], options = []) {
  const file = path.join(reports, `vitest-${label}.json`)
  runCounted(
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`, ...options, ...files],
    env,
    file,
    (r) => ({
      passed: r.numPassedTests,
      failed: r.numFailedTests,
      skipped: r.numPendingTests + r.numTodoTests,
    }),
  )
}

let postgres
let emulator
let exitCode = 0
try {
  step('System packages (chromium, postgresql)', () => ensureSystemPackages())
  step('Lint', () => run(bin('eslint'), ['.', '--max-warnings', '0']))
  // No function of app/ or server/ over 80 lines, SQL and JSX aside (issue #32).
  step('Function sizes', () => run(process.execPath, ['scripts/function-sizes.js', '--max', '80']))
  step('Typecheck', () => run(bin('tsc'), ['--noEmit']))

  console.log('\n▶ Firebase Auth emulator')
  emulator = await ensureAuthEmulator()
  const env = { ...process.env, FIREBASE_AUTH_EMULATOR_HOST: emulator.hostPort }

  // Two workers: each test file has a database of its own here, and one worker left a core idle (302 s against
  // 398 s on this 2-core machine).
  step('Unit and service tests on PGlite', () =>
    vitest('pglite', { ...env, DATABASE_URL: '' }, [], ['--maxWorkers=2']),
  )

  // Before the PostgreSQL pass: its web drill runs the production build, as the end-to-end tests do.
  step('Build', () => run(node, ['node_modules/@remix-run/dev/dist/cli.js', 'vite:build'], { env }))

  let databaseUrl = process.env.DATABASE_URL
  // Two workers, each on a database of its own, on the throwaway server; one on a server named by DATABASE_URL,
  // where this script may not create databases.
  let perWorker = {}
  if (!databaseUrl) {
    postgres = await startThrowawayPostgres()
    databaseUrl = postgres.url
    perWorker = {
      TEST_DATABASE_URL_PER_WORKER: await createWorkerDatabases(databaseUrl, 2),
      TEST_DATABASE_WORKERS: '2',
    }
  }
  // Only the tests that reach a database: the others ran in the first pass and would show nothing new.
  const databaseTests = databaseTestFiles(['app', 'server', 'tests/integration', 'tests/drills'])
  step(`Service tests on PostgreSQL (${databaseTests.length} files that reach the database)`, () =>
    vitest('postgres', { ...env, DATABASE_URL: databaseUrl, ...perWorker }, databaseTests, [
      `--maxWorkers=${perWorker.TEST_DATABASE_WORKERS ?? 1}`,
    ]),
  )

  const e2eReport = path.join(reports, 'playwright.json')
  step('End-to-end tests (Playwright, Chromium)', () =>
    runCounted(
      bin('playwright'),
      ['test', '--reporter=list,json'],
      { ...env, DATABASE_URL: '', PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport },
      e2eReport,
      (r) => ({ ...playwrightCounts(r), flaky: flakyTests(r) }),
    ),
  )
} catch (error) {
  console.error(`\n✘ ${error instanceof Error ? error.message : error}`)
  exitCode = 1
} finally {
  await postgres?.stop()
  await emulator?.stop()
}
if (counts.failed > 0) exitCode = 1
console.log(`\n${closingLines(counts, flaky).join('\n')}`)
process.exit(exitCode)
