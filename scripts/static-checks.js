#!/usr/bin/env node
/**
 * The checks that need no database: lint, function sizes, typecheck, then the production build. `npm test` runs
 * this beside the PGlite pass (vitest uses one worker on a 2-core machine, leaving a core free); it prints each
 * step's line as npm test does and exits non-zero at the first that fails.
 */
import path from 'node:path'
import { run } from './lib/processes.js'

const bin = (name) => path.resolve('node_modules/.bin', name)
const steps = [
  ['Lint', bin('eslint'), ['.', '--max-warnings', '0']],
  // No function of app/ or server/ over 80 lines, SQL and JSX aside (issue #32).
  ['Function sizes', process.execPath, ['scripts/function-sizes.js', '--max', '80']],
  ['Typecheck', bin('tsc'), ['--noEmit']],
  // The PostgreSQL pass's web drill and the end-to-end tests run the production build.
  ['Build', process.execPath, ['node_modules/@remix-run/dev/dist/cli.js', 'vite:build']],
]
for (const [title, command, args] of steps) {
  const started = Date.now()
  console.log(`\n▶ ${title}`)
  run(command, args)
  console.log(`✔ ${title} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
}
