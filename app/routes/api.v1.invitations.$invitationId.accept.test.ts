import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { awaitingEmailText } from '~/lib/organizations/schemas'
import type { Runtime } from '~/runtime/runtime.server'
import { userForToken } from '~/services/auth/profile.server'
import { CONFIRM_EMAIL_FIRST, inviteMember } from '~/services/organizations/invitations.server'
import { createOrganization } from '~/services/organizations/organizations.server'
import { requireOrganizationScope } from '~/services/organizations/scope.server'
import { openConfirmationLink, sentLinks } from '../../tests/setup/email-verification'
import { uniqueEmail } from '../../tests/setup/identity'
import { serveRoutes } from '../../tests/setup/route-server'
import { bootRuntime } from '../../tests/setup/runtime'
import * as list from './api.v1.invitations'
import * as accept from './api.v1.invitations.$invitationId.accept'

// Issue 31: an invitation by email is not accepted over the API by an account that has not confirmed the address.
let runtime: Runtime
let http: Awaited<ReturnType<typeof serveRoutes>>
let booted: Awaited<ReturnType<typeof bootRuntime>>

beforeAll(async () => {
  http = await serveRoutes([
    [/^\/api\/v1\/invitations$/, list],
    [/^\/api\/v1\/invitations\/(?<invitationId>[^/]+)\/accept$/, accept],
  ])
  booted = await bootRuntime('invitations-api', { PUBLIC_URL: http.url })
  runtime = booted.runtime
})
afterAll(async () => {
  await booted.close()
  await http.close()
})

type Envelope<T> = { success: boolean; data: T; message: string | null; code?: string }

/** A user of the Auth emulator and their calls to the API with their ID token. */
async function emulatorUser(email = uniqueEmail()) {
  const { idToken } = await runtime.identity.signUp(email, 'Secret123')
  const user = await userForToken({
    db: runtime.database.db,
    token: await runtime.identity.verifyIdToken(idToken),
  })
  const call = async <T>(method: string, path: string) => {
    const response = await fetch(`${http.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${idToken}` },
    })
    return { status: response.status, body: (await response.json()) as Envelope<T> }
  }
  return { user, email, call }
}

describe('accepting an invitation by email over the API', () => {
  it('is refused with 403 until the invitee confirms the address, then accepted', async () => {
    const db = runtime.database.db
    const owner = await emulatorUser()
    const org = await createOrganization({ db, userId: owner.user.id, name: 'Hidden Kitchen' })
    const invitee = await emulatorUser()
    const ownerScope = await requireOrganizationScope({ db, userId: owner.user.id, organizationId: org.id })
    const { invitation } = await inviteMember(ownerScope, { email: invitee.email })

    const listed = await invitee.call<unknown[]>('GET', '/invitations')
    expect(listed.status).toBe(200)
    expect(listed.body).toMatchObject({
      success: true,
      data: [],
      message: awaitingEmailText({ email: invitee.email, organizations: 1 }),
    })
    expect(JSON.stringify(listed.body)).not.toContain('Hidden Kitchen')

    const refused = await invitee.call('POST', `/invitations/${invitation.id}/accept`)
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ success: false, data: null, message: CONFIRM_EMAIL_FIRST })

    await runtime.identity.sendEmailVerification(invitee.user.firebaseUid)
    expect((await sentLinks(invitee.email)).map((link) => link.requestType)).toEqual(['VERIFY_EMAIL'])
    await openConfirmationLink(invitee.email)

    // The same ID token, issued before the address was confirmed: the provider is asked, not the token.
    const accepted = await invitee.call<{ id: string }>('POST', `/invitations/${invitation.id}/accept`)
    expect(accepted.status).toBe(200)
    expect(accepted.body).toMatchObject({
      success: true,
      data: { id: org.id },
      message: 'You joined Hidden Kitchen',
    })
  })
})
