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
import * as knowledgeSettings from './_app.settings_.knowledge'
import { CUSTOMER_WORDS_TEXTS } from '~/lib/knowledge/customer-words'
import { NUL_MESSAGE } from '~/lib/shared/input'
import { getCustomerWords } from '~/services/knowledge/customer-words.server'

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
function answer(result: object) {
  return 'init' in result && 'data' in result
    ? { status: (result.init as ResponseInit | null)?.status ?? 200, body: result.data }
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

describe('Settings › Knowledge: words your customers use (issue 36)', () => {
  const words = (cookie: string, text: string) =>
    knowledgeSettings.action({
      request: new Request('http://127.0.0.1/settings/knowledge', {
        method: 'POST',
        headers: { Cookie: cookie },
        body: new URLSearchParams({ words: text }),
      }),
      params: {},
      context: {},
    })
  const shown = async (cookie: string) =>
    (
      await knowledgeSettings.loader({
        request: new Request('http://127.0.0.1/settings/knowledge', { headers: { Cookie: cookie } }),
        params: {},
        context: {},
      })
    ).groups

  it("saves the groups of the session's organization, one a line, and shows them; another's stay its own", async () => {
    const first = await newOwner()
    const second = await newOwner()
    const saved = answer(
      await words(first.cookie, ' Móvil, celular ,teléfono\n\npostage; delivery, delivery\n'),
    )
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({ notice: CUSTOMER_WORDS_TEXTS.saved })
    expect(await shown(first.cookie)).toEqual([
      ['Móvil', 'celular', 'teléfono'],
      ['postage', 'delivery'],
    ])
    expect(await getCustomerWords(first.owner)).toEqual(await shown(first.cookie))
    expect(await shown(second.cookie)).toEqual([])

    // A member (not only an owner) keeps the knowledge, its words too; an emptied box removes them.
    const { user: member, cookie } = await signedIn('member')
    await runtime.database.db
      .insert(memberships)
      .values({ organizationId: first.owner.organizationId, userId: member.id, role: 'member' })
    expect(answer(await words(cookie, '')).status).toBe(200)
    expect(await getCustomerWords(first.owner)).toEqual([])
  })

  it('refuses a line of one word, too long a word or too many groups, keeping what was typed and the words', async () => {
    const { owner, cookie } = await newOwner()
    await words(cookie, 'mobile, cell phone')
    for (const [text, message] of [
      ['mobile, cell phone\nrefund', CUSTOMER_WORDS_TEXTS.single(2)],
      // A blank line is skipped, and the message names the line as the box shows it.
      ['mobile, cell phone\n\nrefund', CUSTOMER_WORDS_TEXTS.single(3)],
      [`mobile, ${'x'.repeat(61)}`, CUSTOMER_WORDS_TEXTS.tooLong(1)],
      [Array.from({ length: 201 }, (_, i) => `a${i}, b${i}`).join('\n'), CUSTOMER_WORDS_TEXTS.tooManyGroups],
      ['mobile, cell\u0000phone', NUL_MESSAGE],
    ]) {
      const refused = answer(await words(cookie, text))
      expect(refused.status, message).toBe(400)
      expect(refused.body, message).toEqual({ error: message, notice: null, words: text })
    }
    expect(await getCustomerWords(owner)).toEqual([['mobile', 'cell phone']])
  })
})
