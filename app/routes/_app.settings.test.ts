import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memberships } from '~/db/schema'
import { commitSessionCookie } from '~/http/auth.server'
import { ANALYTICS_TEXTS } from '~/lib/analytics/analytics'
import type { Runtime } from '~/runtime/runtime.server'
import { userForToken } from '~/services/auth/profile.server'
import { createSession } from '~/services/auth/sessions.server'
import { createOrganization, getOrganization } from '~/services/organizations/organizations.server'
import { requireOrganizationScope, type OrganizationScope } from '~/services/organizations/scope.server'
import { uniqueEmail } from '../../tests/setup/identity'
import { bootRuntime } from '../../tests/setup/runtime'
import { action, loader } from './_app.settings'

// The Settings page's time zone form, through its loader and action as Remix calls them: a real runtime, a real
// session cookie, the organization taken from the session (never from the form).
let booted: Awaited<ReturnType<typeof bootRuntime>>
let runtime: Runtime
beforeAll(async () => {
  booted = await bootRuntime('settings', { WORKER_IN_PROCESS: 'false', LOG_LEVEL: 'error' })
  runtime = booted.runtime
}, 90_000) // a whole runtime boots: slow on a loaded machine
afterAll(() => booted.close())

/** A user of the Auth emulator (the session check asks it) signed in: their row and session cookie. */
async function signedIn(name: string) {
  const { idToken } = await runtime.identity.signUp(uniqueEmail(name), 'Secret123')
  const user = await userForToken({
    db: runtime.database.db,
    token: await runtime.identity.verifyIdToken(idToken),
  })
  const session = await createSession({ db: runtime.database.db, userId: user.id })
  return { user, cookie: (await commitSessionCookie(session.id)).split(';')[0] }
}

/** A signed-in owner of a new organization: their scope and cookie. */
async function newOwner() {
  const { user, cookie } = await signedIn('owner')
  const db = runtime.database.db
  const org = await createOrganization({ db, userId: user.id, name: 'Zone shop' })
  return { cookie, owner: await requireOrganizationScope({ db, userId: user.id, organizationId: org.id }) }
}

function post(cookie: string, fields: Record<string, string>) {
  const request = new Request('http://127.0.0.1/settings', {
    method: 'POST',
    headers: { Cookie: cookie },
    body: new URLSearchParams(fields),
  })
  return action({ request, params: {}, context: {} })
}

/** What the action answered: its status (200 unless set) and its data. */
function answer(result: Awaited<ReturnType<typeof action>>) {
  return 'init' in result && result.init && 'data' in result
    ? { status: result.init.status ?? 200, body: result.data }
    : { status: 200, body: result }
}

async function zoneOf(scope: OrganizationScope) {
  return (await getOrganization(scope))?.timeZone
}

describe('Settings: the time zone', () => {
  it("lets an owner choose the organization's zone from the list, kept as Intl names it", async () => {
    const { owner, cookie } = await newOwner()
    const page = await loader({
      request: new Request('http://127.0.0.1/settings', { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    })
    expect(page.organization?.timeZone).toBe('UTC')
    expect(page.timeZones).toContain('Europe/Berlin')

    const saved = answer(await post(cookie, { intent: 'time-zone', timeZone: 'america/new_york' }))
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({ timeZoneNotice: ANALYTICS_TEXTS.timeZoneSaved('America/New_York') })
    expect(await zoneOf(owner)).toBe('America/New_York')
  })

  it('refuses an unknown zone, an offset or none with a clear message, and keeps the zone', async () => {
    const { owner, cookie } = await newOwner()
    for (const [timeZone, message] of [
      ['Mars/Olympus', ANALYTICS_TEXTS.timeZoneInvalid],
      ['+05:00', ANALYTICS_TEXTS.timeZoneInvalid],
      ['', ANALYTICS_TEXTS.timeZoneRequired],
    ]) {
      const refused = answer(await post(cookie, { intent: 'time-zone', timeZone }))
      expect(refused.status, timeZone).toBe(400)
      expect(refused.body, timeZone).toMatchObject({
        timeZoneResult: { error: { timeZone: [message] } },
      })
    }
    expect(await zoneOf(owner)).toBe('UTC')
  })

  it('does not let a member change it (403), and shows it to them', async () => {
    const { owner } = await newOwner()
    const { user: member, cookie } = await signedIn('member')
    await runtime.database.db
      .insert(memberships)
      .values({ organizationId: owner.organizationId, userId: member.id, role: 'member' })
    const refused = answer(await post(cookie, { intent: 'time-zone', timeZone: 'Asia/Kolkata' }))
    expect(refused.status).toBe(403)
    expect(await zoneOf(owner)).toBe('UTC')
    const page = await loader({
      request: new Request('http://127.0.0.1/settings', { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    })
    expect(page.organization).toMatchObject({ id: owner.organizationId, role: 'member', timeZone: 'UTC' })
  })
})
