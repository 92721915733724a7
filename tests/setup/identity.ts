import { randomUUID } from 'node:crypto'
import { createFirebaseIdentity } from '~/integrations/firebase/identity.server'

export const EMULATOR_HOST = process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099'

/** The real Firebase Auth emulator that npm test starts. */
export function testIdentity() {
  return createFirebaseIdentity({
    projectId: 'demo-replypilot',
    apiKey: 'demo-api-key',
    emulatorHost: EMULATOR_HOST,
  })
}

export function uniqueEmail(prefix = 'user') {
  return `${prefix}-${randomUUID().slice(0, 12)}@example.com`
}
