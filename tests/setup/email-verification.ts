import { z } from 'zod'
import type { Database } from '~/db/client.server'
import { upsertUser } from '~/services/auth/users.server'
import type { EmailOwnership } from '~/services/organizations/invitations.server'
import { EMULATOR_HOST, testIdentity, uniqueEmail } from './identity'

/** For users made only in our database (newTestUser): their address counts as confirmed. */
export const EMAIL_CONFIRMED: EmailOwnership = { isEmailVerified: () => Promise.resolve(true) }

const identityToolkit = `http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1`
const oobCodesBody = z.object({
  oobCodes: z.array(z.object({ email: z.string(), requestType: z.string(), oobCode: z.string() })),
})

/** The emails with a link (out-of-band codes) the Auth emulator has sent to an address, oldest first. */
export async function sentLinks(email: string) {
  const response = await fetch(`http://${EMULATOR_HOST}/emulator/v1/projects/demo-replypilot/oobCodes`)
  if (!response.ok) throw new Error(`Auth emulator oobCodes: HTTP ${response.status}`)
  const { oobCodes } = oobCodesBody.parse(await response.json())
  return oobCodes.filter((code) => code.email === email)
}

/** A user with a real emulator account (unconfirmed address), mirrored in our users table as sign-in does. */
export async function newEmulatorUser(db: Database, displayName = 'U', email = uniqueEmail()) {
  const identity = testIdentity()
  const { idToken } = await identity.signUp(email, 'secret-password')
  const { uid } = await identity.verifyIdToken(idToken)
  return upsertUser({ db, firebaseUid: uid, email, displayName })
}

/** What the person does with the email: opens its VERIFY_EMAIL link (the emulator applies its code). */
export async function openConfirmationLink(email: string) {
  const link = (await sentLinks(email)).findLast((code) => code.requestType === 'VERIFY_EMAIL')
  if (!link) throw new Error(`no confirmation email was sent to ${email}`)
  const response = await fetch(`${identityToolkit}/accounts:update?key=demo-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ oobCode: link.oobCode }),
  })
  if (!response.ok) throw new Error(`Auth emulator accounts:update: HTTP ${response.status}`)
}
