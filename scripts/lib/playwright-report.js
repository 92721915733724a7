import path from 'node:path'

/** What npm test adds up from Playwright's JSON report: a test that passed on a retry counts as passed. */
export function playwrightCounts(report) {
  return {
    passed: report.stats.expected + report.stats.flaky,
    failed: report.stats.unexpected,
    skipped: report.stats.skipped,
  }
}

/**
 * The tests that failed and then passed on a retry, as `file:line › describe › title` with the file relative to
 * `cwd`: they count as passed, so the closing output names them.
 */
export function flakyTests(report, cwd = process.cwd()) {
  const rootDir = report.config?.rootDir ?? cwd
  const named = []
  // A file's own suite is titled with the file name, which the location already gives.
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      if (!spec.tests.some((test) => test.status === 'flaky')) continue
      const file = path.relative(cwd, path.resolve(rootDir, spec.file)).split(path.sep).join('/')
      named.push(`${file}:${spec.line} › ${[...titles, spec.title].join(' › ')}`)
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title])
  }
  for (const suite of report.suites ?? []) visit(suite, [])
  return named
}

/** npm test's closing lines: the flaky tests when there are any, then the counts line CI parses, always last. */
export function closingLines(counts, flaky) {
  const total = `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`
  if (flaky.length === 0) return [total]
  return [`flaky (passed on retry): ${flaky.length}: ${flaky.join('; ')}`, total]
}
