import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChannelHealth } from '~/lib/channels/health'
import { platformDeps } from '~/runtime/channel-deps.server'
import type { Runtime } from '~/runtime/runtime.server'
import { userForToken } from '~/services/auth/profile.server'
import { assignAgent } from '~/services/channels/channels.server'
import { setChannelWebhook } from '~/services/channels/webhook.server'
import { createOrganization } from '~/services/organizations/organizations.server'
import { requireOrganizationScope } from '~/services/organizations/scope.server'
import { startTelegramFake, type TelegramFake } from '../../tests/fakes/telegram-server'
import { uniqueEmail } from '../../tests/setup/identity'
import { serveRoutes } from '../../tests/setup/route-server'
import { bootRuntime } from '../../tests/setup/runtime'
import { connectTestBot, newTestAgent } from '../../tests/setup/tenant'
import * as check from './api.v1.organizations.$orgId.channels.$channelId.check'
import * as health from './api.v1.organizations.$orgId.channels.health'

// The channel health API over real HTTP, in the process as the server boots it, against the Telegram fake and the
// Auth emulator's users.
let runtime: Runtime
let telegram: TelegramFake
let http: Awaited<ReturnType<typeof serveRoutes>>
let booted: Awaited<ReturnType<typeof bootRuntime>>

beforeAll(async () => {
  ;[telegram, http] = await Promise.all([
    startTelegramFake(),
    serveRoutes([
      [/^\/api\/v1\/organizations\/(?<orgId>[^/]+)\/channels\/health$/, health],
      [/^\/api\/v1\/organizations\/(?<orgId>[^/]+)\/channels\/(?<channelId>[^/]+)\/check$/, check],
    ]),
  ])
  booted = await bootRuntime('channel-health-api', {
    PUBLIC_URL: http.url,
    TELEGRAM_UPDATES: 'webhook',
    TELEGRAM_API_ROOT: telegram.apiRoot,
  })
  runtime = booted.runtime
})
afterAll(async () => {
  await booted.close()
  await Promise.all([telegram.close(), http.close()])
})

type Envelope<T> = { success: boolean; data: T; message: string | null; code?: string }

async function call<T>(token: string | undefined, method: string, path: string) {
  const response = await fetch(`${http.url}/api/v1${path}`, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })
  return { status: response.status, body: (await response.json()) as Envelope<T> }
}

async function newTenant(name = 'Ada') {
  const db = runtime.database.db
  const { idToken } = await runtime.identity.signUp(uniqueEmail(name.toLowerCase()), 'Secret123')
  const user = await userForToken({ db, token: await runtime.identity.verifyIdToken(idToken) })
  const org = await createOrganization({ db, userId: user.id, name: `${name}'s shop` })
  const scope = await requireOrganizationScope({ db, userId: user.id, organizationId: org.id })
  const bot = await connectTestBot(scope, telegram, platformDeps(runtime), { firstName: `${name} Bot` })
  await assignAgent(scope, bot.channelId, { agentId: (await newTestAgent(scope)).id })
  return { token: idToken, scope, orgId: org.id, bot }
}

describe('channel health API', () => {
  it('GET .../channels/health lists each channel; POST .../check asks the platform and answers the health', async () => {
    const ada = await newTenant()
    const listed = await call<ChannelHealth[]>(
      ada.token,
      'GET',
      `/organizations/${ada.orgId}/channels/health`,
    )
    expect(listed).toMatchObject({ status: 200, body: { success: true } })
    expect(listed.body.data).toEqual([
      {
        channelId: ada.bot.channelId,
        name: 'Ada Bot',
        platform: 'telegram',
        // Checked when it was connected (issue 34).
        status: 'ok',
        reasons: [],
        checkedAt: expect.any(String),
      },
    ])

    telegram.enqueue('getMe', { status: 401, description: 'Unauthorized', token: ada.bot.token })
    const checked = await call<ChannelHealth>(
      ada.token,
      'POST',
      `/organizations/${ada.orgId}/channels/${ada.bot.channelId}/check`,
    )
    expect(checked).toMatchObject({
      status: 200,
      body: {
        success: true,
        message: 'Channel checked',
        data: {
          status: 'attention',
          reasons: [
            { code: 'token_invalid', action: { label: 'Reconnect', href: '/channels/connect/telegram' } },
          ],
        },
      },
    })
    expect(JSON.stringify(checked.body)).not.toContain(ada.bot.token)

    await setChannelWebhook(ada.scope, ada.bot.channelId, false, platformDeps(runtime))
    const again = await call<ChannelHealth>(
      ada.token,
      'POST',
      `/organizations/${ada.orgId}/channels/${ada.bot.channelId}/check`,
    )
    expect(again.body.data.reasons.map((reason) => reason.code)).toEqual(['webhook_off'])
  })

  it('answers 404 across tenants (a foreign organization, a foreign channel id) and 403 without a token', async () => {
    const [ada, bob] = await Promise.all([newTenant('Ada'), newTenant('Bob')])
    const foreignOrg = await call(bob.token, 'GET', `/organizations/${ada.orgId}/channels/health`)
    expect([foreignOrg.status, foreignOrg.body.code]).toEqual([404, 'NOT_FOUND'])
    const foreignCheck = await call(
      bob.token,
      'POST',
      `/organizations/${ada.orgId}/channels/${ada.bot.channelId}/check`,
    )
    expect([foreignCheck.status, foreignCheck.body.code]).toEqual([404, 'NOT_FOUND'])
    // Bob's own organization, Ada's channel id: not found there, and nothing asked of Telegram for it.
    const before = telegram.calls.filter((c) => c.token === ada.bot.token).length
    const foreignChannel = await call(
      bob.token,
      'POST',
      `/organizations/${bob.orgId}/channels/${ada.bot.channelId}/check`,
    )
    expect([foreignChannel.status, foreignChannel.body.code]).toEqual([404, 'NOT_FOUND'])
    const unknown = await call(
      bob.token,
      'POST',
      `/organizations/${bob.orgId}/channels/${randomUUID()}/check`,
    )
    expect(unknown.status).toBe(404)
    expect(telegram.calls.filter((c) => c.token === ada.bot.token).length).toBe(before)
    const notAnId = await call(bob.token, 'POST', `/organizations/${bob.orgId}/channels/nope/check`)
    expect(notAnId.status).toBe(400)
    const listed = await call<ChannelHealth[]>(
      bob.token,
      'GET',
      `/organizations/${bob.orgId}/channels/health`,
    )
    expect(listed.body.data.map((h) => h.channelId)).toEqual([bob.bot.channelId])
    const anonymous = await call(undefined, 'GET', `/organizations/${ada.orgId}/channels/health`)
    expect([anonymous.status, anonymous.body.code]).toEqual([403, 'AUTH_TOKEN_MISSING'])
  })
})
