#!/usr/bin/env node
/**
 * `npm start`: the product on its embedded default, at http://localhost:${PORT:-3000}.
 * Builds the app when the build is missing or older than the sources, starts the Firebase Auth emulator
 * (unless FIREBASE_AUTH_EMULATOR_HOST already answers), then the server with PGlite under ./data.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { ensureAuthEmulator } from './lib/emulator.js'
import { run, startChild } from './lib/processes.js'

function newestMtime(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs)
  }
  return newest
}

if (existsSync('.env')) process.loadEnvFile('.env')

const buildFile = 'build/server/index.js'
const stale =
  !existsSync(buildFile) ||
  Math.max(newestMtime('app'), newestMtime('public'), statSync('vite.config.ts').mtimeMs) >
    statSync(buildFile).mtimeMs
if (stale) {
  console.log('Building the app...')
  run(process.execPath, ['node_modules/@remix-run/dev/dist/cli.js', 'vite:build'])
}

console.log('Starting the Firebase Auth emulator...')
const emulator = await ensureAuthEmulator()
const env = {
  NODE_ENV: 'production',
  // The embedded default: generated secrets under ./data and the Auth emulator are allowed on purpose.
  EMBEDDED_DEFAULTS: 'true',
  FIREBASE_AUTH_EMULATOR_HOST: emulator.hostPort,
  ...process.env,
}
const server = startChild(process.execPath, ['--import', 'tsx', 'server/index.ts'], { env, stdio: 'inherit' })

let stopping = false
const stopAll = async () => {
  if (stopping) return
  stopping = true
  await server.stop()
  await emulator.stop()
  process.exit(0)
}
process.on('SIGINT', stopAll)
process.on('SIGTERM', stopAll)
server.child.on('exit', async (code) => {
  await emulator.stop()
  process.exit(stopping ? 0 : (code ?? 1))
})
