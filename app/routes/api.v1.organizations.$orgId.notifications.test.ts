import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversations } from '~/db/schema'
import type { NotificationItem } from '~/lib/notifications/notifications'
import { platformDeps } from '~/runtime/channel-deps.server'
import type { Runtime } from '~/runtime/runtime.server'
import { userForToken } from '~/services/auth/profile.server'
import { handOver } from '~/services/messages/reply/queries.server'
import { createOrganization } from '~/services/organizations/organizations.server'
import { requireOrganizationScope } from '~/services/organizations/scope.server'
import { startSmtpFake, type SmtpFake } from '../../tests/fakes/smtp-server'
import { startTelegramFake, type TelegramFake } from '../../tests/fakes/telegram-server'
import { uniqueEmail } from '../../tests/setup/identity'
import { waitFor } from '../../tests/setup/pipeline'
import { serveRoutes } from '../../tests/setup/route-server'
import { bootRuntime } from '../../tests/setup/runtime'
import { connectTestBot } from '../../tests/setup/tenant'
import * as list from './api.v1.organizations.$orgId.notifications'
import * as read from './api.v1.organizations.$orgId.notifications.read'
import * as preferences from './api.v1.notification-preferences'

// The Notifications API over real HTTP, in the process as the server boots it (its worker fans events out and
// sends email to the local SMTP server); users are the Auth emulator's.
let runtime: Runtime
let telegram: TelegramFake
let smtp: SmtpFake
let http: Awaited<ReturnType<typeof serveRoutes>>
let booted: Awaited<ReturnType<typeof bootRuntime>>

beforeAll(async () => {
  ;[telegram, smtp, http] = await Promise.all([
    startTelegramFake(),
    startSmtpFake(),
    serveRoutes([
      [/^\/api\/v1\/organizations\/(?<orgId>[^/]+)\/notifications$/, list],
      [/^\/api\/v1\/organizations\/(?<orgId>[^/]+)\/notifications\/read$/, read],
      [/^\/api\/v1\/notification-preferences$/, preferences],
    ]),
  ])
  booted = await bootRuntime('notifications-api', {
    PUBLIC_URL: http.url,
    TELEGRAM_UPDATES: 'webhook',
    TELEGRAM_API_ROOT: telegram.apiRoot,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'ReplyPilot <alerts@example.com>',
  })
  runtime = booted.runtime
})
afterAll(async () => {
  await booted.close()
  await Promise.all([telegram.close(), smtp.close(), http.close()])
})

type Envelope<T> = {
  success: boolean
  data: T
  message: string | null
  code?: string
  errors?: Record<string, string[]>
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

async function newTenant(name: string) {
  const db = runtime.database.db
  const email = uniqueEmail(name.toLowerCase())
  const { idToken } = await runtime.identity.signUp(email, 'Secret123')
  const user = await userForToken({ db, token: await runtime.identity.verifyIdToken(idToken) })
  const org = await createOrganization({ db, userId: user.id, name: `${name}'s shop` })
  const scope = await requireOrganizationScope({ db, userId: user.id, organizationId: org.id })
  return { token: idToken, email, scope, orgId: org.id }
}

let chats = 960_000
/** A conversation of the tenant's bot that comes to need a person. */
async function needsPerson(tenant: Awaited<ReturnType<typeof newTenant>>, reason: string) {
  const bot = await connectTestBot(tenant.scope, telegram, platformDeps(runtime))
  const [conversation] = await runtime.database.db
    .insert(conversations)
    .values({
      organizationId: tenant.orgId,
      channelId: bot.channelId,
      platformChatId: String(++chats),
      customerName: 'Ann Lee',
    })
    .returning({ id: conversations.id })
  await handOver(runtime.database.db, conversation.id, reason)
  return conversation.id
}

type Bell = { items: NotificationItem[]; unread: number }

describe('notifications', () => {
  it('lists the caller’s own, marks them read by id or all, and the email went out with a link here', async () => {
    const ada = await newTenant('Ada')
    const first = await needsPerson(ada, 'Asked for a refund')
    const second = await needsPerson(ada, 'Asked for a manager')
    const bell = await waitFor(
      () => call<Bell>(ada.token, 'GET', `/organizations/${ada.orgId}/notifications`),
      (r) => r.body.data?.unread === 2,
    )
    expect(bell.status).toBe(200)
    // Both may come out of one round with one time: in either order.
    expect(bell.body.data.items.map((i) => i.conversationId).sort()).toEqual([first, second].sort())
    expect(bell.body.data.items[0]).toMatchObject({
      event: 'needs_attention',
      title: 'Ann Lee needs a person',
    })
    // On PostgreSQL the test files share a database: this process's worker may send others' mails too. Both may
    // go in one email (due together) or two.
    const links = [first, second].map((id) => `${http.url}/conversations/${id}`)
    await waitFor(
      async () =>
        smtp.mails
          .filter((m) => m.to.includes(ada.email))
          .map((m) => m.text)
          .join('\n'),
      (text) => links.every((link) => text.includes(link)),
    )

    const byId = await call<{ unread: number }>(
      ada.token,
      'POST',
      `/organizations/${ada.orgId}/notifications/read`,
      {
        ids: [bell.body.data.items.find((i) => i.conversationId === second)?.id],
      },
    )
    expect(byId).toMatchObject({ status: 200, body: { data: { unread: 1 } } })
    const unread = await call<Bell>(ada.token, 'GET', `/organizations/${ada.orgId}/notifications?unread=true`)
    expect(unread.body.data.items.map((i) => i.conversationId)).toEqual([first])
    const all = await call(ada.token, 'POST', `/organizations/${ada.orgId}/notifications/read`, {})
    expect(all).toMatchObject({ status: 200, body: { data: { unread: 0 } } })
  })

  it('another organization’s member gets 404 and changes nothing; bad input is a 400; no token a 403', async () => {
    const ada = await newTenant('Ada')
    const eve = await newTenant('Eve')
    await needsPerson(ada, 'Asked for a person')
    const bell = await waitFor(
      () => call<Bell>(ada.token, 'GET', `/organizations/${ada.orgId}/notifications`),
      (r) => r.body.data?.unread === 1,
    )
    expect((await call(eve.token, 'GET', `/organizations/${ada.orgId}/notifications`)).status).toBe(404)
    expect((await call(eve.token, 'POST', `/organizations/${ada.orgId}/notifications/read`, {})).status).toBe(
      404,
    )
    // Ada's ids through Eve's own organization: nothing of Ada's changes.
    const ids = bell.body.data.items.map((i) => i.id)
    expect(
      await call(eve.token, 'POST', `/organizations/${eve.orgId}/notifications/read`, { ids }),
    ).toMatchObject({
      status: 200,
      body: { data: { unread: 0 } },
    })
    expect(
      (await call<Bell>(ada.token, 'GET', `/organizations/${ada.orgId}/notifications`)).body.data.unread,
    ).toBe(1)

    const bad = await call(ada.token, 'POST', `/organizations/${ada.orgId}/notifications/read`, {
      ids: ['x'],
    })
    expect(bad.status).toBe(400)
    expect(
      (await call(ada.token, 'GET', `/organizations/${ada.orgId}/notifications?unread=maybe`)).status,
    ).toBe(400)
    const anonymous = await call(undefined, 'GET', `/organizations/${ada.orgId}/notifications`)
    expect([anonymous.status, anonymous.body.code]).toEqual([403, 'AUTH_TOKEN_MISSING'])
  })
})

describe('notification preferences', () => {
  it('reads the defaults, changes what is named, and refuses an unknown event with 400, changing nothing', async () => {
    const ada = await newTenant('Ada')
    const defaults = await call<Record<string, unknown>>(ada.token, 'GET', '/notification-preferences')
    expect(defaults).toMatchObject({
      status: 200,
      body: {
        data: {
          choices: {
            needs_attention: { app: true, email: true, push: true, telegram: true },
            assigned: { app: true, email: true, push: true, telegram: true },
            customer_wrote: { app: true, email: false, push: false, telegram: false },
            channel_attention: { app: true, email: false, push: false, telegram: false },
          },
          quietHours: null,
          timeZone: 'UTC',
        },
      },
    })
    const unknown = await call(ada.token, 'PUT', '/notification-preferences', {
      choices: { needs_attention: { email: false }, birthdays: { app: true } },
    })
    expect(unknown.status).toBe(400)
    expect(JSON.stringify(unknown.body)).toContain('Unknown notification event')
    const badHours = await call(ada.token, 'PUT', '/notification-preferences', {
      quietHours: { start: '22:00', end: '25:00' },
    })
    expect(badHours.status).toBe(400)
    expect((await call(ada.token, 'GET', '/notification-preferences')).body).toEqual(defaults.body)

    const changed = await call<{ choices: Record<string, unknown> }>(
      ada.token,
      'PUT',
      '/notification-preferences',
      {
        choices: { needs_attention: { email: false } },
        quietHours: { start: '22:00', end: '07:00' },
        timeZone: 'America/Sao_Paulo',
      },
    )
    expect(changed).toMatchObject({
      status: 200,
      body: {
        data: {
          choices: {
            needs_attention: { app: true, email: false, push: true, telegram: true },
            assigned: { app: true, email: true, push: true, telegram: true },
          },
          quietHours: { start: '22:00', end: '07:00' },
          timeZone: 'America/Sao_Paulo',
        },
      },
    })
    expect((await call(undefined, 'GET', '/notification-preferences')).status).toBe(403)
  })
})
