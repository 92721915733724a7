import { afterEach, beforeEach, vi } from 'vitest'

// npm test's PostgreSQL pass runs two workers, each on a database of its own (scripts/lib/postgres.js): set here,
// before the test file is imported, so that everything the file opens reads this worker's URL.
const perWorker = process.env.TEST_DATABASE_URL_PER_WORKER
if (perWorker) {
  const count = Number(process.env.TEST_DATABASE_WORKERS ?? 1)
  const worker = ((Number(process.env.VITEST_POOL_ID ?? 1) - 1) % count) + 1
  process.env.DATABASE_URL = perWorker.replace('{worker}', String(worker))
}

// A console.error during a test is a defect the test did not expect: fail it.
let errors: unknown[][] = []
beforeEach(() => {
  errors = []
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args)
  })
})
afterEach(() => {
  vi.restoreAllMocks()
  if (errors.length > 0) {
    throw new Error(`console.error was called:\n${errors.map((e) => e.map(String).join(' ')).join('\n')}`)
  }
})
