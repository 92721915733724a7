#!/usr/bin/env node
/**
 * Lighthouse on the production build: the /login page, all four categories (performance, accessibility,
 * best-practices, seo), Lighthouse's desktop preset by default (LIGHTHOUSE_PRESET=mobile for the mobile one:
 * Moto G Power emulation, simulated slow-4G throttling), in Debian's headless Chromium.
 *
 * Reproduce: `npm run bench:lighthouse` (builds the app first if build/server/index.js is missing).
 * It starts `node --import tsx server/index.ts` on a free port with a throwaway DATA_DIR, waits for /healthz,
 * runs Lighthouse through its Node API LIGHTHOUSE_RUNS times (default 3, each in a fresh Chrome profile), and for
 * the run with the median performance score prints one `category: score` line per category and, for every
 * category under 95, the audits that failed. Exit code 1 when any score is under 95, 0 otherwise.
 * Set CHROME_PATH to use another Chrome (default /usr/bin/chromium); set LIGHTHOUSE_REPORT=<file.html> (or .json)
 * to also write the median run's full report, with the details behind each audit.
 * LIGHTHOUSE_URL=<url> audits a page of a server that is already running instead, sending LIGHTHOUSE_COOKIE (a
 * `Cookie` header, e.g. a signed-in session) with every request. LIGHTHOUSE_PAGE and LIGHTHOUSE_DATA_DIR audit
 * another page of the server it starts, on a data directory prepared beforehand: `npm run
 * bench:lighthouse:dashboard` (bench/lighthouse-dashboard.ts) seeds one and audits the dashboard with them.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import desktopConfig from 'lighthouse/core/config/desktop-config.js'
import { buildAppIfMissing, freePort, OFFLINE_CHROMIUM_FLAGS } from '../scripts/lib/processes.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium'
// The page audited on the server this script starts (LIGHTHOUSE_PAGE=/ with LIGHTHOUSE_DATA_DIR and
// LIGHTHOUSE_COOKIE: the dashboard, as bench/lighthouse-dashboard.ts runs it).
const PAGE = process.env.LIGHTHOUSE_PAGE || '/login'
// A data directory prepared beforehand (a seeded PGlite database); kept afterwards. Default: a throwaway one.
const GIVEN_DATA_DIR = process.env.LIGHTHOUSE_DATA_DIR
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
const THRESHOLD = 95
const SERVER_START_TIMEOUT_MS = 60_000
// Simulated throttling replays the page load this machine observed. On localhost the scripts arrive within
// ~200 ms, and whether the first paint lands before or after them decides whether Lighthouse counts them as
// render-blocking: single runs differ by up to ~10 points, so judge the median of a few.
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS) || 3)
// desktop (the gate) or mobile. On this 2-core machine over localhost, mobile's simulated slow 4G is bimodal:
// when the first paint lands after the module scripts arrive (~200 ms here) Lighthouse replays them as
// render-blocking and scores 88-94, otherwise 96-100, for the same page (docs/decisions/016).
const PRESET = process.env.LIGHTHOUSE_PRESET === 'mobile' ? 'mobile' : 'desktop'
const REPORT_FILE = process.env.LIGHTHOUSE_REPORT
const CHROME_FLAGS = ['--headless=new', ...OFFLINE_CHROMIUM_FLAGS]
const TARGET_URL = process.env.LIGHTHOUSE_URL
const COOKIE = process.env.LIGHTHOUSE_COOKIE

/** The production server with its own DATA_DIR; its output is kept to explain a failed start. */
export function startServer(port, dataDir) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      EMBEDDED_DEFAULTS: 'true',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const keep = (chunk) => {
    output = (output + chunk).slice(-8000)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  return {
    child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        const killer = setTimeout(() => child.kill('SIGKILL'), 5000)
        child.once('exit', () => {
          clearTimeout(killer)
          resolve()
        })
        child.kill('SIGTERM')
      }),
  }
}

export async function waitForHealthy(baseUrl, server) {
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) {
      throw new Error(
        `The server exited (code ${server.child.exitCode}) before it was ready:\n${server.output()}`,
      )
    }
    try {
      const response = await fetch(`${baseUrl}/healthz`)
      if (response.status === 200) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(
    `${baseUrl}/healthz did not answer 200 within ${SERVER_START_TIMEOUT_MS / 1000} s:\n${server.output()}`,
  )
}

/**
 * Audits of a category that did not pass (score under 0.9, as Lighthouse's report marks them), each with its
 * weight in the category score: metrics count, diagnostics and insights (weight 0) only explain.
 */
function failingAudits(lhr, categoryId) {
  return lhr.categories[categoryId].auditRefs
    .map((ref) => ({ audit: lhr.audits[ref.id], weight: ref.weight }))
    .filter(({ audit }) => audit.score !== null && audit.score < 0.9)
    .filter(
      ({ audit }) => audit.scoreDisplayMode !== 'informative' && audit.scoreDisplayMode !== 'notApplicable',
    )
    .sort((a, b) => b.weight - a.weight)
}

function report(lhr) {
  console.log(
    `Lighthouse ${lhr.lighthouseVersion}, ${lhr.configSettings.formFactor} preset, ${lhr.finalDisplayedUrl}`,
  )
  if (lhr.runtimeError) console.log(`Runtime error: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`)
  for (const warning of lhr.runWarnings) console.log(`Warning: ${warning}`)

  let passed = true
  for (const id of CATEGORIES) {
    const category = lhr.categories[id]
    const score = category.score === null ? null : Math.round(category.score * 100)
    console.log(`${id}: ${score ?? 'n/a'}`)
    if (score !== null && score >= THRESHOLD) continue
    passed = false
    for (const { audit, weight } of failingAudits(lhr, id)) {
      const value = audit.displayValue ? `, ${audit.displayValue}` : ''
      console.log(`  - ${audit.id}: ${audit.title} (score ${audit.score}${value}, weight ${weight})`)
    }
  }
  return passed
}

/** One Lighthouse run in a fresh Chrome with a fresh profile; Chrome is stopped before it returns. */
async function runLighthouse(url, session) {
  const profile = mkdtempSync(path.join(tmpdir(), 'replypilot-lighthouse-chrome-'))
  session.profiles.push(profile)
  session.chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: CHROME_FLAGS,
    userDataDir: profile,
    handleSIGINT: false, // our own handler stops Chrome and the server
  })
  try {
    const result = await lighthouse(
      url,
      {
        port: session.chrome.port,
        output: REPORT_FILE?.endsWith('.json') ? 'json' : 'html',
        logLevel: 'error',
        onlyCategories: CATEGORIES,
        ...(COOKIE ? { extraHeaders: { Cookie: COOKIE } } : {}),
      },
      PRESET === 'desktop' ? desktopConfig : undefined,
    )
    if (!result) throw new Error('Lighthouse returned no result')
    return result
  } finally {
    session.chrome.kill()
    session.chrome = undefined
  }
}

async function main() {
  if (TARGET_URL) return auditRunningServer(TARGET_URL)
  buildAppIfMissing()

  const port = await freePort()
  const baseUrl = `http://localhost:${port}`
  const dataDir = GIVEN_DATA_DIR || mkdtempSync(path.join(tmpdir(), 'replypilot-lighthouse-data-'))
  const session = { server: undefined, chrome: undefined, profiles: [] }
  let cleaned
  const cleanUp = () =>
    (cleaned ??= (async () => {
      session.chrome?.kill()
      await session.server?.stop()
      for (const dir of [...(GIVEN_DATA_DIR ? [] : [dataDir]), ...session.profiles])
        rmSync(dir, { recursive: true, force: true, maxRetries: 5 })
    })())
  // Stopped from outside (Ctrl-C, a CI timeout): still stop the server and Chrome.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ]) {
    process.once(signal, () => cleanUp().finally(() => process.exit(code)))
  }
  try {
    session.server = startServer(port, dataDir)
    await waitForHealthy(baseUrl, session.server)

    const results = []
    for (let run = 1; run <= RUNS; run++) {
      const result = await runLighthouse(`${baseUrl}${PAGE}`, session)
      results.push(result)
      console.log(`run ${run}/${RUNS}: performance ${Math.round(performance(result) * 100)}`)
    }
    return reportMedian(results)
  } finally {
    await cleanUp()
  }
}

const performance = (result) => result.lhr.categories.performance.score ?? 0

/** The run with the median performance score stands for all (accessibility, best practices and SEO do not
 * depend on timing). */
function reportMedian(results) {
  const byScore = [...results].sort((a, b) => performance(a) - performance(b))
  const median = byScore[Math.floor((byScore.length - 1) / 2)]
  if (REPORT_FILE) {
    writeFileSync(REPORT_FILE, median.report)
    console.log(`Report of the median run: ${path.resolve(REPORT_FILE)}`)
  }
  return report(median.lhr) ? 0 : 1
}

/** LIGHTHOUSE_URL: a page of a server someone else started (and seeded). */
async function auditRunningServer(url) {
  const session = { chrome: undefined, profiles: [] }
  try {
    const results = []
    for (let run = 1; run <= RUNS; run++) {
      const result = await runLighthouse(url, session)
      results.push(result)
      console.log(`run ${run}/${RUNS}: performance ${Math.round(performance(result) * 100)}`)
    }
    return reportMedian(results)
  } finally {
    session.chrome?.kill()
    for (const dir of session.profiles) rmSync(dir, { recursive: true, force: true, maxRetries: 5 })
  }
}

// Run, not imported (bench/screenshots.ts imports startServer and waitForHealthy).
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : error)
      process.exit(1)
    },
  )
}
