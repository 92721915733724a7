import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agents, channels, conversations, memberships, messages } from '~/db/schema'
import { ANALYTICS_TEXTS, daysIn } from '~/lib/analytics/analytics'
import { defaultDashboardRange } from '~/lib/analytics/dashboard-query'
import type { Runtime } from '~/runtime/runtime.server'
import { userForToken } from '~/services/auth/profile.server'
import { createOrganization } from '~/services/organizations/organizations.server'
import { uniqueEmail } from '../../tests/setup/identity'
import { serveRoutes } from '../../tests/setup/route-server'
import { bootRuntime } from '../../tests/setup/runtime'
import { ERROR_STATUS } from '~/utils/errors'
import * as analytics from './api.v1.organizations.$orgId.analytics'
import * as organization from './api.v1.organizations.$orgId'

// The dashboard's API over real HTTP, as the server boots it, with the Auth emulator's users: the figures of the
// caller's own organization, and a clear 400 or 404 (never another organization's figures) for anything else.
let runtime: Runtime
let http: Awaited<ReturnType<typeof serveRoutes>>
let booted: Awaited<ReturnType<typeof bootRuntime>>

beforeAll(async () => {
  http = await serveRoutes([
    [/^\/api\/v1\/organizations\/(?<orgId>[^/]+)\/analytics$/, analytics],
    [/^\/api\/v1\/organizations\/(?<orgId>[^/]+)$/, organization],
  ])
  booted = await bootRuntime('analytics-api', {}, { worker: false })
  runtime = booted.runtime
})
afterAll(async () => {
  await booted.close()
  await http.close()
})

type Envelope<T> = { success: boolean; data: T; message: string | null; code?: string }
type Figures = {
  period: { from: string; to: string; timeZone: string; granularity: string }
  totals: { received: number; answeredByAi: number }
  channels: { id: string }[]
}

async function call<T = unknown>(token: string | undefined, method: string, path: string, body?: unknown) {
  const response = await fetch(`${http.url}/api/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Envelope<T> }
}

async function newUser(name: string) {
  const { idToken } = await runtime.identity.signUp(uniqueEmail(name), 'Secret123')
  const user = await userForToken({
    db: runtime.database.db,
    token: await runtime.identity.verifyIdToken(idToken),
  })
  return { token: idToken, user }
}

/** An owner's organization with a channel, an agent and one answered customer message on 2025-03-10 at 02:00Z. */
async function newTenant(name: string) {
  const db = runtime.database.db
  const owner = await newUser(name)
  const org = await createOrganization({ db, userId: owner.user.id, name: `${name}'s shop` })
  const [agent] = await db
    .insert(agents)
    .values({
      organizationId: org.id,
      readableId: `a-${randomUUID().slice(0, 8)}`,
      name: 'A',
      systemPrompt: 'Help.',
    })
    .returning({ id: agents.id })
  const [channel] = await db
    .insert(channels)
    .values({
      organizationId: org.id,
      platformName: 'telegram',
      channelType: 'telegram_bot',
      platformChannelId: randomUUID(),
      agentId: agent.id,
    })
    .returning({ id: channels.id })
  const [conversation] = await db
    .insert(conversations)
    .values({ organizationId: org.id, channelId: channel.id, platformChatId: randomUUID() })
    .returning({ id: conversations.id })
  await db.insert(messages).values({
    organizationId: org.id,
    channelId: channel.id,
    conversationId: conversation.id,
    direction: 'inbound',
    text: 'hi',
    status: 'replied',
    createdAt: new Date('2025-03-10T02:00:00Z'),
  })
  return { ...owner, orgId: org.id, channelId: channel.id, agentId: agent.id }
}

const period = 'from=2025-03-10&to=2025-03-11'

describe('GET /organizations/{orgId}/analytics', () => {
  let a: Awaited<ReturnType<typeof newTenant>>
  let b: Awaited<ReturnType<typeof newTenant>>
  beforeAll(async () => {
    ;[a, b] = await Promise.all([newTenant('ada'), newTenant('bob')])
  })

  it("answers the caller's organization's figures, for a member too, filtered by its own channel or agent", async () => {
    const owner = await call<Figures>(a.token, 'GET', `/organizations/${a.orgId}/analytics?${period}`)
    expect(owner.status).toBe(200)
    expect(owner.body.data.totals).toMatchObject({ received: 1, answeredByAi: 1 })
    expect(owner.body.data.channels.map((c) => c.id)).toEqual([a.channelId])

    const member = await newUser('cy')
    await runtime.database.db
      .insert(memberships)
      .values({ organizationId: a.orgId, userId: member.user.id, role: 'member' })
    const byMember = await call<Figures>(
      member.token,
      'GET',
      `/organizations/${a.orgId}/analytics?${period}&channelId=${a.channelId}&agentId=${a.agentId}`,
    )
    expect(byMember.status).toBe(200)
    expect(byMember.body.data.totals.received).toBe(1)
  })

  it("refuses another organization, or another organization's channel or agent, as not found", async () => {
    const foreignOrg = await call(a.token, 'GET', `/organizations/${b.orgId}/analytics?${period}`)
    expect(foreignOrg).toMatchObject({
      status: 404,
      body: { success: false, message: 'Organization not found' },
    })
    const foreignChannel = await call(
      a.token,
      'GET',
      `/organizations/${a.orgId}/analytics?${period}&channelId=${b.channelId}`,
    )
    expect(foreignChannel).toMatchObject({ status: 404, body: { message: ANALYTICS_TEXTS.channelNotFound } })
    const foreignAgent = await call(
      a.token,
      'GET',
      `/organizations/${a.orgId}/analytics?${period}&agentId=${b.agentId}`,
    )
    expect(foreignAgent).toMatchObject({ status: 404, body: { message: ANALYTICS_TEXTS.agentNotFound } })
    const unknownChannel = await call(
      a.token,
      'GET',
      `/organizations/${a.orgId}/analytics?${period}&channelId=${randomUUID()}`,
    )
    expect(unknownChannel.status).toBe(404)
    const noToken = await call(undefined, 'GET', `/organizations/${a.orgId}/analytics?${period}`)
    expect(noToken.status).toBe(ERROR_STATUS.AUTH_TOKEN_MISSING.status)
  })

  it("answers for the dashboard's default period when from and to are left out (issue 31)", async () => {
    const tenant = await newTenant('eve')
    const zone = 'Pacific/Kiritimati'
    await call(tenant.token, 'PATCH', `/organizations/${tenant.orgId}`, { timeZone: zone })
    const before = new Date()
    const figures = await call<Figures>(tenant.token, 'GET', `/organizations/${tenant.orgId}/analytics`)
    const after = new Date()
    expect(figures.status).toBe(200)
    // The same period the dashboard shows with nothing chosen (7 days to today, in the organization's zone).
    const expected = [defaultDashboardRange(zone, before), defaultDashboardRange(zone, after)]
    expect(expected).toContainEqual({ from: figures.body.data.period.from, to: figures.body.data.period.to })
    expect(figures.body.data.period).toMatchObject({ timeZone: zone, granularity: 'day' })
    expect(daysIn(figures.body.data.period.from, figures.body.data.period.to)).toBe(7)
    const filtered = await call<Figures>(
      tenant.token,
      'GET',
      `/organizations/${tenant.orgId}/analytics?channelId=${tenant.channelId}`,
    )
    expect(filtered.status).toBe(200)
  })

  it('refuses an inverted, over-long or malformed period with 400 and says why', async () => {
    const cases: [string, string][] = [
      ['from=2025-03-11&to=2025-03-10', ANALYTICS_TEXTS.rangeInverted],
      ['from=2024-01-01&to=2025-01-01', ANALYTICS_TEXTS.rangeTooLong],
      ['from=2025-01-01&to=2025-01-08&granularity=hour', ANALYTICS_TEXTS.hourlyTooLong],
      ['from=2025-02-30&to=2025-03-01', ANALYTICS_TEXTS.dateInvalid('from')],
      ['from=2025-03-01', ANALYTICS_TEXTS.dateInvalid('to')],
      ['to=2025-03-01', ANALYTICS_TEXTS.dateInvalid('from')],
      ['from=&to=2025-03-01', ANALYTICS_TEXTS.dateInvalid('from')],
      [`${period}&granularity=week`, 'granularity must be day or hour'],
    ]
    for (const [query, message] of cases) {
      const response = await call(a.token, 'GET', `/organizations/${a.orgId}/analytics?${query}`)
      expect(response.status, query).toBe(400)
      expect(JSON.stringify(response.body), query).toContain(message)
    }
    const longest = await call(
      a.token,
      'GET',
      `/organizations/${a.orgId}/analytics?from=2024-01-01&to=2024-12-31`,
    )
    expect(longest.status).toBe(200)
  })

  it("sets the organization's time zone through PATCH (owners only), which moves the days", async () => {
    const set = await call<{ timeZone: string; name: string }>(
      a.token,
      'PATCH',
      `/organizations/${a.orgId}`,
      {
        timeZone: 'america/new_york',
      },
    )
    expect(set).toMatchObject({
      status: 200,
      body: { data: { timeZone: 'America/New_York', name: "ada's shop" } },
    })
    // 02:00Z on the 10th is the 9th in New York: out of the period.
    const figures = await call<Figures>(a.token, 'GET', `/organizations/${a.orgId}/analytics?${period}`)
    expect(figures.body.data.period.timeZone).toBe('America/New_York')
    expect(figures.body.data.totals.received).toBe(0)

    const invalid = await call(a.token, 'PATCH', `/organizations/${a.orgId}`, { timeZone: 'Mars/Olympus' })
    expect(invalid.status).toBe(400)
    expect(JSON.stringify(invalid.body)).toContain(ANALYTICS_TEXTS.timeZoneInvalid)
    const empty = await call(a.token, 'PATCH', `/organizations/${a.orgId}`, {})
    expect(empty.status).toBe(400)
    const member = await newUser('dee')
    await runtime.database.db
      .insert(memberships)
      .values({ organizationId: a.orgId, userId: member.user.id, role: 'member' })
    const byMember = await call(member.token, 'PATCH', `/organizations/${a.orgId}`, { timeZone: 'UTC' })
    expect(byMember.status).toBe(403)
    const foreign = await call(a.token, 'PATCH', `/organizations/${b.orgId}`, { timeZone: 'UTC' })
    expect(foreign.status).toBe(404)
    const renamed = await call<{ timeZone: string; name: string }>(
      a.token,
      'PATCH',
      `/organizations/${a.orgId}`,
      {
        name: 'Renamed',
      },
    )
    expect(renamed.body.data).toMatchObject({ name: 'Renamed', timeZone: 'America/New_York' })
  })
})
