import { randomInt } from 'node:crypto'
import { expect, test } from './helpers'
import { apiUser, createOrg, type ApiUser } from './api-client'
import { registerBot, telegramCalls } from './channel-helpers'
import { facebookUser, graphMessages, whatsappNumber } from './meta-helpers'

/**
 * The product API's platform, webhook and Facebook calls (spec section 7) over real HTTP, against the running
 * app with the Telegram fake and the Graph fake behind it.
 */

/** A person at the Graph fake who administers two pages. */
const twoPageOwner = () =>
  facebookUser({
    pages: [
      { name: 'North Store', category: 'Shopping & retail' },
      { name: 'South Store', category: 'Shopping & retail' },
    ],
  })

type Connection = {
  connectionId: string
  platformName: string
  status: string
  accountInfo: Record<string, unknown>
  platformData: { channelStatus: string; webhookSubscribed: boolean; platformChannelId: string }
}
type PlatformStatus = { platformName: string; status: string; supported: boolean; connections: Connection[] }

async function tenant(request: Parameters<typeof apiUser>[0], name: string) {
  const user = await apiUser(request, name)
  const org = await createOrg(user, `${name} Org`)
  const call = <T>(
    method: Parameters<ApiUser['call']>[0],
    path: string,
    body?: unknown,
    headers: Record<string, string> = { 'X-Organization-Id': org.id },
  ) => user.call<T>(method, path, { body, headers })
  return { user, org, call }
}

test('platforms: connect, status, refresh and disconnect a Telegram bot; the spec errors; tokens never come back', async ({
  request,
}) => {
  const { org, call, user } = await tenant(request, 'Platforms')
  const bot = await registerBot('Platform Bot')

  const noOrg = await user.call('POST', '/platforms/telegram/connect', { body: { authData: {} } })
  expect([noOrg.status, noOrg.body.message]).toEqual([400, 'No organization selected'])
  const unknown = await call('GET', '/platforms/myspace/status')
  expect([unknown.status, unknown.body.code, unknown.body.message]).toEqual([
    404,
    'INVALID_PLATFORM',
    'Platform not found',
  ])
  const noStrategy = await call('POST', '/platforms/tiktok/connect', { authData: {} })
  expect([noStrategy.status, noStrategy.body.message]).toEqual([
    400,
    'No connection strategy found for platform',
  ])
  const noToken = await call('POST', '/platforms/telegram/connect', { authData: {} })
  expect([noToken.status, noToken.body.success, noToken.body.message]).toEqual([
    400,
    false,
    'Bot token is required for Telegram connection',
  ])

  const connected = await call<Connection[]>('POST', '/platforms/telegram/connect', {
    authData: { botToken: bot.token },
  })
  expect(connected.status).toBe(201)
  expect(await connected.response.text()).not.toContain(bot.token.split(':')[1])
  const [connection] = connected.body.data
  expect(connection).toMatchObject({
    platformName: 'telegram',
    status: 'connected',
    accountInfo: { displayName: 'Platform Bot', username: bot.username },
  })

  const one = await call<PlatformStatus>('GET', '/platforms/telegram/status')
  expect(one.body.data).toMatchObject({ platformName: 'telegram', status: 'connected', supported: true })
  const all = await call<PlatformStatus[]>('GET', '/platforms/status')
  expect(all.body.data.map((p) => `${p.platformName}:${p.status}`)).toEqual([
    'facebook:disconnected',
    'telegram:connected',
    'instagram:disconnected',
    'whatsapp:disconnected',
    'tiktok:disconnected',
  ])

  const getMes = async () => (await telegramCalls(bot.token)).filter((c) => c.method === 'getMe').length
  const before = await getMes()
  const refreshed = await call<PlatformStatus>('PUT', '/platforms/telegram/refresh', { forceRefresh: true })
  expect(refreshed.status).toBe(200)
  expect(refreshed.body.data.connections[0].platformData.channelStatus).toBe('active')
  expect(await getMes()).toBe(before + 1)

  // Another user: not a member of this organization, and their own organization does not have the bot.
  const intruder = await tenant(request, 'Intruder')
  const foreign = await intruder.call('GET', '/platforms/status', undefined, { 'X-Organization-Id': org.id })
  expect(foreign.status).toBe(404)
  const steal = await intruder.call('DELETE', '/platforms/telegram/disconnect', {
    connectionId: connection.connectionId,
  })
  expect([steal.status, steal.body.message]).toEqual([404, 'Connection not found'])

  const gone = await call<{ disconnected: string[] }>('DELETE', '/platforms/telegram/disconnect', {
    connectionId: connection.connectionId,
  })
  expect(gone.body.data.disconnected).toEqual([connection.connectionId])
  const again = await call('DELETE', '/platforms/telegram/disconnect', {})
  expect([again.status, again.body.message]).toEqual([404, 'Connection not found'])
  const whatsappNone = await call('PUT', '/platforms/whatsapp/refresh', {})
  expect([whatsappNone.status, whatsappNone.body.message]).toEqual([404, 'WhatsApp connection not found'])
})

test('Facebook pages and a WhatsApp number through the platforms and channels endpoints', async ({
  request,
}) => {
  const { org, call } = await tenant(request, 'Meta')
  const person = await twoPageOwner()

  const invalid = await call('POST', '/platforms/facebook/connect', {
    authData: { accessToken: 'EAAforged' },
  })
  expect([invalid.status, invalid.body.message]).toEqual([400, 'Facebook connection is no longer valid'])
  const pages = await call<Connection[]>('POST', '/platforms/facebook/connect', {
    authData: { accessToken: person.token },
    options: { pageIds: [person.pages[0].id] },
  })
  expect(pages.status).toBe(201)
  expect(pages.body.data).toMatchObject([
    {
      status: 'connected',
      accountInfo: { displayName: 'North Store' },
      platformData: { webhookSubscribed: true },
    },
  ])
  expect(await pages.response.text()).not.toContain(person.pages[0].accessToken)

  // The other page through the channels API, as the Channels screen's Facebook flow creates it.
  const created = await call<Array<{ platformName: string; metadata: Record<string, string> }>>(
    'POST',
    `/organizations/${org.id}/channels`,
    { channels: [{ platformName: 'facebook', ...person.pages[1] }] },
  )
  expect(created.status).toBe(201)
  expect(created.body.data).toMatchObject([{ platformName: 'facebook', metadata: { name: 'South Store' } }])
  expect(await created.response.text()).not.toContain(person.pages[1].accessToken)

  const number = await whatsappNumber('Desk')
  const noCode = await call('POST', `/organizations/${org.id}/channels/whatsapp/connect`, {
    wabaId: number.wabaId,
    phoneNumberId: number.phoneNumberId,
  })
  expect([noCode.status, noCode.body.message]).toEqual([
    400,
    'No authorization code received from WhatsApp signup',
  ])
  const whatsapp = await call<{
    channel: { platformName: string }
    phoneDetails: unknown
    wabaDetails: unknown
  }>('POST', `/organizations/${org.id}/channels/whatsapp/connect`, {
    code: number.code,
    wabaId: number.wabaId,
    phoneNumberId: number.phoneNumberId,
  })
  expect(whatsapp.status).toBe(201)
  expect(whatsapp.body.data).toMatchObject({
    channel: { platformName: 'whatsapp' },
    phoneDetails: { verified_name: 'Desk', display_phone_number: number.displayPhoneNumber },
    wabaDetails: { id: number.wabaId, name: 'Desk WABA' },
  })
  expect(await whatsapp.response.text()).not.toContain(number.business)

  const status = await call<PlatformStatus[]>('GET', '/platforms/status')
  const counts = Object.fromEntries(status.body.data.map((p) => [p.platformName, p.connections.length]))
  expect(counts).toMatchObject({ facebook: 2, whatsapp: 1, telegram: 0 })
})

test('webhooks: subscribe and unsubscribe a channel by platform; the direct Facebook calls check the page token', async ({
  request,
}) => {
  const { org, call, user } = await tenant(request, 'Hooks')
  const bot = await registerBot('Hook Bot')
  const [channel] = (
    await call<Array<{ id: string }>>('POST', `/organizations/${org.id}/channels`, {
      platformName: 'telegram',
      botToken: bot.token,
    })
  ).body.data
  const ref = { organizationId: org.id, channelId: channel.id }

  const wrongPlatform = await call('POST', '/webhooks/facebook/subscribe', ref)
  expect(wrongPlatform.status).toBe(404)
  const on = await call<{ webhookSubscribed: boolean; webhookUrl: string }>(
    'POST',
    '/webhooks/telegram/subscribe',
    ref,
  )
  expect([on.status, on.body.success, on.body.message]).toEqual([200, true, 'Webhook subscribed'])
  expect(on.body.data.webhookUrl).toContain(`/webhooks/telegram/${channel.id}`)
  const setWebhook = (await telegramCalls(bot.token)).find((c) => c.method === 'setWebhook')
  expect(setWebhook?.params.secret_token).toBeTruthy()

  const intruder = await tenant(request, 'Hook Intruder')
  const foreign = await intruder.call('DELETE', '/webhooks/telegram/unsubscribe', ref, {})
  expect(foreign.status).toBe(404)
  const off = await call<{ webhookSubscribed: boolean }>('DELETE', '/webhooks/telegram/unsubscribe', ref)
  expect([off.status, off.body.data.webhookSubscribed]).toEqual([200, false])

  // The direct Facebook calls: a connected page, its own token.
  const person = await twoPageOwner()
  const [page] = person.pages
  await call('POST', `/organizations/${org.id}/channels`, { platformName: 'facebook', ...page })
  const anonymous = await request.post('/api/facebook/send-message', {
    data: { pageAccessToken: page.accessToken, recipientId: '123', message: 'hi' },
  })
  expect(anonymous.status()).toBe(403)
  const noOrg = await user.call('POST', '/api/facebook/send-message', {
    body: { pageAccessToken: page.accessToken, recipientId: '123', message: 'hi' },
  })
  expect([noOrg.status, noOrg.body.message]).toEqual([400, 'No organization selected'])

  const subscribed = await call<{ webhookSubscribed: boolean }>('POST', '/api/facebook/webhook/subscribe', {
    pageAccessToken: page.accessToken,
    pageId: page.id,
    subscriptions: [
      'messages',
      'messaging_postbacks',
      'message_deliveries',
      'message_reads',
      'message_echoes',
    ],
  })
  expect([subscribed.status, subscribed.body.data.webhookSubscribed]).toEqual([200, true])

  const recipientId = String(randomInt(1e6, 9e6))
  const sent = await call<{ messageId: string; parts: number }>('POST', '/api/facebook/send-message', {
    pageAccessToken: page.accessToken,
    recipientId,
    message: { text: 'Your order shipped' },
  })
  expect([sent.status, sent.body.data.parts]).toEqual([200, 1])
  expect((await graphMessages()).filter((m) => m.to === recipientId)).toEqual([
    expect.objectContaining({
      id: sent.body.data.messageId,
      text: 'Your order shipped',
      messagingType: 'RESPONSE',
    }),
  ])
  // Another organization cannot send as this page, even holding its token.
  const stolen = await intruder.call('POST', '/api/facebook/send-message', {
    pageAccessToken: page.accessToken,
    recipientId,
    message: 'spam',
  })
  expect([stolen.status, stolen.body.message]).toEqual([404, 'Connection not found'])
})
