import { ensureAuthEmulator } from '../../scripts/lib/emulator.js'

/** vitest and Playwright global setup: the real Firebase Auth emulator, reused when one already answers. */
export default async function setup() {
  const emulator = await ensureAuthEmulator()
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.hostPort
  return () => emulator.stop()
}
