import { createWriteStream, mkdirSync } from 'node:fs'
import path from 'node:path'
import { portOpen, startChild, waitForPort } from './processes.js'

export const DEFAULT_EMULATOR_HOST = '127.0.0.1:9099'
const PROJECT_ID = 'demo-replypilot'

/**
 * Makes sure the Firebase Auth emulator answers at FIREBASE_AUTH_EMULATOR_HOST (default 127.0.0.1:9099):
 * reuses one that is running, or starts one (about 7 s) whose output goes to data/logs/auth-emulator.log.
 */
export async function ensureAuthEmulator({ logDir = 'data/logs' } = {}) {
  const hostPort = process.env.FIREBASE_AUTH_EMULATOR_HOST || DEFAULT_EMULATOR_HOST
  const [host, portText] = hostPort.split(':')
  const port = Number(portText)
  if (await portOpen(host, port)) return { hostPort, stop: async () => {} }

  mkdirSync(logDir, { recursive: true })
  const log = createWriteStream(path.join(logDir, 'auth-emulator.log'))
  // The node process itself, not the npx wrapper, so that stopping it really stops the emulator.
  const bin = path.resolve('node_modules/firebase-tools/lib/bin/firebase.js')
  const { child, stop } = startChild(
    process.execPath,
    [bin, 'emulators:start', '--only', 'auth', '--project', PROJECT_ID],
    {
      env: { ...process.env, FIREBASE_AUTH_EMULATOR_HOST: undefined },
    },
  )
  child.stdout.pipe(log)
  child.stderr.pipe(log)
  const exited = new Promise((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`The Auth emulator exited (code ${code}); see ${logDir}/auth-emulator.log`)),
    ),
  )
  await Promise.race([waitForPort(host, port, 90_000, 'The Firebase Auth emulator'), exited])
  return { hostPort, stop }
}
