#!/usr/bin/env node
/**
 * Lighthouse on the production build: the /login page, all four categories (performance, accessibility,
 * best-practices, seo), Lighthouse's default mobile preset (Moto G Power emulation, simulated slow-4G
 * throttling), in Debian's headless Chromium.
 *
 * Reproduce: `npm run bench:lighthouse` (builds the app first if build/server/index.js is missing).
 * It starts `node --import tsx server/index.ts` on a free port with a throwaway DATA_DIR, waits for /healthz,
 * runs Lighthouse through its Node API, prints one `category: score` line per category and, for every
 * category under 95, the audits that failed. Exit code 1 when any score is under 95, 0 otherwise.
 * Set CHROME_PATH to use another Chrome (default /usr/bin/chromium); set LIGHTHOUSE_REPORT=<file.html> (or .json)
 * to also write Lighthouse's full report, with the details behind each audit.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium'
const PAGE = '/login'
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
const THRESHOLD = 95
const SERVER_START_TIMEOUT_MS = 60_000
// The machine has no internet: without the background-networking flags Chromium stalls on its own
// update, sync and component requests.
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

function buildIfMissing() {
  if (existsSync(path.join(ROOT, 'build/server/index.js'))) return
  console.log('build/server/index.js is missing: building the app...')
  const result = spawnSync(process.execPath, ['node_modules/@remix-run/dev/dist/cli.js', 'vite:build'], {
    cwd: ROOT,
    stdio: 'inherit',
  })
  if (result.status !== 0) throw new Error(`The build failed (exit ${result.status ?? result.signal})`)
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** The production server with its own DATA_DIR; its output is kept to explain a failed start. */
function startServer(port, dataDir) {
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

async function waitForHealthy(baseUrl, server) {
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

async function main() {
  buildIfMissing()

  const port = await freePort()
  const baseUrl = `http://localhost:${port}`
  const dataDir = mkdtempSync(path.join(tmpdir(), 'replypilot-lighthouse-data-'))
  const chromeProfile = mkdtempSync(path.join(tmpdir(), 'replypilot-lighthouse-chrome-'))
  let server
  let chrome
  let cleaned
  const cleanUp = () =>
    (cleaned ??= (async () => {
      chrome?.kill()
      await server?.stop()
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 })
      rmSync(chromeProfile, { recursive: true, force: true, maxRetries: 5 })
    })())
  // Stopped from outside (Ctrl-C, a CI timeout): still stop the server and Chrome.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => cleanUp().finally(() => process.exit(130)))
  }
  try {
    server = startServer(port, dataDir)
    await waitForHealthy(baseUrl, server)

    chrome = await chromeLauncher.launch({
      chromePath: CHROME_PATH,
      chromeFlags: CHROME_FLAGS,
      userDataDir: chromeProfile,
      handleSIGINT: false, // our own handler stops Chrome and the server
    })
    // No config: Lighthouse's default mobile preset with simulated throttling.
    const result = await lighthouse(`${baseUrl}${PAGE}`, {
      port: chrome.port,
      output: process.env.LIGHTHOUSE_REPORT?.endsWith('.json') ? 'json' : 'html',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
    })
    if (!result) throw new Error('Lighthouse returned no result')
    if (process.env.LIGHTHOUSE_REPORT) {
      writeFileSync(process.env.LIGHTHOUSE_REPORT, result.report)
      console.log(`Report: ${path.resolve(process.env.LIGHTHOUSE_REPORT)}`)
    }
    return report(result.lhr) ? 0 : 1
  } finally {
    await cleanUp()
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  },
)
