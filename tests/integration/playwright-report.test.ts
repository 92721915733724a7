import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { closingLines, flakyTests, playwrightCounts } from '../../scripts/lib/playwright-report.js'

// A report Playwright 1.65 wrote (--reporter=json, retries 1) for a file with a test that passes, one that passes
// only on its retry, the same in nested describes, one that always fails and one skipped; trimmed to what is read.
const FIXTURE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/playwright-report.json',
)
const report = JSON.parse(readFileSync(FIXTURE, 'utf8'))

describe("npm test's reading of Playwright's JSON report", () => {
  it('counts a test that passed on its retry as passed', () => {
    expect(playwrightCounts(report)).toEqual({ passed: 3, failed: 1, skipped: 1 })
  })

  it('names each test that passed only on a retry by file, line and title, describes included', () => {
    expect(flakyTests(report, '/repo')).toEqual([
      'tests/e2e/inbox.spec.ts:3 › fails then passes',
      'tests/e2e/inbox.spec.ts:6 › inbox › badge › shows 3 on its retry',
    ])
  })

  it('puts them on the line before the counts, which stays last and unchanged', () => {
    const counts = playwrightCounts(report)
    expect(closingLines(counts, flakyTests(report, '/repo'))).toEqual([
      'flaky (passed on retry): 2: tests/e2e/inbox.spec.ts:3 › fails then passes; tests/e2e/inbox.spec.ts:6 › inbox › badge › shows 3 on its retry',
      '3 passed, 1 failed, 1 skipped',
    ])
    expect(closingLines(counts, [])).toEqual(['3 passed, 1 failed, 1 skipped'])
  })
})
