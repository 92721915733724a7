import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/**
 * Chromium's flags for this machine, which has no internet: without the background-networking ones it stalls
 * on its own update, sync and component requests.
 */
export const OFFLINE_CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Runs a command to completion with inherited output; throws with its name when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options })
  if (result.status !== 0) {
    throw new Error(`${[command, ...args].join(' ')} failed (exit ${result.status ?? result.signal})`)
  }
}

/** Builds the app (the production build the benchmarks serve) when build/server/index.js is missing. */
export function buildAppIfMissing() {
  if (existsSync(path.join(ROOT, 'build/server/index.js'))) return
  console.log('build/server/index.js is missing: building the app...')
  run(process.execPath, ['node_modules/@remix-run/dev/dist/cli.js', 'vite:build'], { cwd: ROOT })
}

export function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0
}

export function portOpen(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

export async function waitForPort(host, port, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await portOpen(host, port)) return
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${what} did not start on ${host}:${port} within ${timeoutMs / 1000} s`)
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Starts a long-running child; returns a stop() that ends it and waits. */
export function startChild(command, args, options = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options })
  return {
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
        setTimeout(() => child.kill('SIGKILL'), 5000).unref()
      }),
  }
}
