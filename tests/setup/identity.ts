import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { createFirebaseIdentity } from '~/integrations/firebase/identity.server'

export const EMULATOR_HOST = process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099'
const PROJECT_ID = 'demo-replypilot'

/** The real Firebase Auth emulator that npm test starts. */
export function testIdentity() {
  return createFirebaseIdentity({
    projectId: PROJECT_ID,
    apiKey: 'demo-api-key',
    emulatorHost: EMULATOR_HOST,
  })
}

export function uniqueEmail(prefix = 'user') {
  return `${prefix}-${randomUUID().slice(0, 12)}@example.com`
}

const oobCodesBody = z.object({
  oobCodes: z.array(z.object({ email: z.string(), requestType: z.string(), oobCode: z.string() })),
})

/** The out-of-band codes (the emails) the emulator has sent to an address: what a mailbox would have received. */
export async function emulatorOobCodes(email: string) {
  const response = await fetch(`http://${EMULATOR_HOST}/emulator/v1/projects/${PROJECT_ID}/oobCodes`)
  if (!response.ok) throw new Error(`Auth emulator oobCodes: HTTP ${response.status}`)
  const { oobCodes } = oobCodesBody.parse(await response.json())
  return oobCodes.filter((code) => code.email === email)
}
