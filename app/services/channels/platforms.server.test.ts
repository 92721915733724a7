import { randomBytes, randomInt } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '~/db/client.server'
import { messages } from '~/db/schema'
import { createTelegramClient } from '~/integrations/telegram/bot-api.server'
import { CHANNEL_TEXTS } from '~/lib/channels/channels'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { startGraphFake, type GraphFake } from '../../../tests/fakes/graph-server'
import { startTelegramFake, type TelegramFake } from '../../../tests/fakes/telegram-server'
import { openTestDatabase } from '../../../tests/setup/database'
import {
  META_SERVICE_APP,
  metaServiceDeps,
  seedFacebookUser,
  seedWhatsAppNumber,
} from '../../../tests/setup/meta-tenant'
import { newOwnerScope } from '../../../tests/setup/scope'
import { getChannel, toChannelView } from './channels.server'
import { createChannels } from './create-channels.server'
import { sendPageMessage, subscribePageWebhook } from './facebook-api.server'
import {
  allPlatformStatuses,
  connectPlatform,
  disconnectPlatform,
  platformStatus,
  refreshPlatform,
  requirePlatform,
} from './platforms.server'
import type { PlatformDeps } from './platform-deps.server'
import { setChannelWebhook, switchPlatformWebhook } from './webhook.server'

let handle: DatabaseHandle
let graph: GraphFake
let telegram: TelegramFake
let deps: PlatformDeps
beforeAll(async () => {
  ;[handle, graph, telegram] = await Promise.all([
    openTestDatabase(),
    startGraphFake(META_SERVICE_APP),
    startTelegramFake(),
  ])
  deps = { ...metaServiceDeps(graph), telegram: createTelegramClient({ apiRoot: telegram.apiRoot }) }
})
afterAll(async () => {
  await Promise.all([handle.close(), graph.close(), telegram.close()])
})

const newScope = () => newOwnerScope(handle.db)

/** A bot the Telegram fake knows, with a well-formed unique token. */
function newBot(username = 'acme_bot') {
  const id = randomInt(1_000_000_000, 9_000_000_000)
  const token = `${id}:${randomBytes(27).toString('base64url').slice(0, 35)}`
  telegram.addBot({ token, id, username, firstName: 'Acme' })
  return token
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error, 'expected a failure').toBeDefined()
  return error as { code: string; message: string }
}

const connectBot = (scope: OrganizationScope, token = newBot()) =>
  connectPlatform(scope, 'telegram', { authData: { botToken: token } }, deps)

describe('requirePlatform and strategies', () => {
  it('an unknown platform is "Platform not found"; Instagram and TikTok have no connection strategy', async () => {
    expect(() => requirePlatform('myspace')).toThrow(
      expect.objectContaining({ code: 'INVALID_PLATFORM', message: 'Platform not found' }),
    )
    expect(requirePlatform('whatsapp')).toBe('whatsapp')
    const scope = await newScope()
    for (const platform of ['instagram', 'tiktok'] as const) {
      expect(await failure(connectPlatform(scope, platform, {}, deps))).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: CHANNEL_TEXTS.noStrategy,
      })
    }
  })
})

describe('connectPlatform', () => {
  it('Telegram: the spec message without a token, the format message for a bad one, then a connected bot', async () => {
    const scope = await newScope()
    expect(await failure(connectPlatform(scope, 'telegram', {}, deps))).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Bot token is required for Telegram connection',
    })
    expect(
      await failure(connectPlatform(scope, 'telegram', { authData: { botToken: '  ' } }, deps)),
    ).toMatchObject({ message: 'Bot token is required for Telegram connection' })
    expect(
      await failure(connectPlatform(scope, 'telegram', { authData: { botToken: '12:short' } }, deps)),
    ).toMatchObject({ message: 'Invalid bot token format' })

    const token = newBot('front_desk_bot')
    const [connection] = await connectBot(scope, token)
    expect(connection).toMatchObject({
      platformName: 'telegram',
      status: 'connected',
      accountInfo: { displayName: 'Acme', username: 'front_desk_bot' },
      expiresAt: null,
      platformData: { channelType: 'telegram_bot', channelStatus: 'active', webhookSubscribed: false },
    })
    expect(connection.lastSync).toEqual(connection.connectedAt)
    expect(JSON.stringify(connection)).not.toContain(token.split(':')[1])
    expect(await failure(connectBot(scope, token))).toMatchObject({ code: 'CONFLICT' })
  })

  it('Facebook: every page of the person, or the ones named, with long-lived page tokens and webhooks on', async () => {
    const scope = await newScope()
    expect(await failure(connectPlatform(scope, 'facebook', { authData: {} }, deps))).toMatchObject({
      message: CHANNEL_TEXTS.noAccessToken,
    })
    expect(
      await failure(
        connectPlatform(scope, 'facebook', { authData: { accessToken: 'EAAnot-a-token' } }, deps),
      ),
    ).toMatchObject({ code: 'VALIDATION_ERROR', message: CHANNEL_TEXTS.facebookInvalid })

    const { userToken, pages } = seedFacebookUser(graph, 3)
    expect(
      await failure(
        connectPlatform(
          scope,
          'facebook',
          { authData: { accessToken: userToken }, options: { pageIds: ['123'] } },
          deps,
        ),
      ),
    ).toMatchObject({ message: CHANNEL_TEXTS.noFacebookPagesAvailable })

    const chosen = await connectPlatform(
      scope,
      'facebook',
      { authData: { accessToken: userToken }, options: { pageIds: [pages[1].id] } },
      deps,
    )
    expect(chosen.map((c) => c.platformData.platformChannelId)).toEqual([pages[1].id])
    expect(chosen[0]).toMatchObject({
      status: 'connected',
      accountInfo: { displayName: 'Acme Page 2', pageId: pages[1].id },
      platformData: { webhookSubscribed: true },
    })
    expect(graph.state.pageSubscriptions[pages[1].id]).toEqual(
      expect.arrayContaining(['messages', 'message_reads']),
    )

    const second = await newScope()
    // The page of the first organization cannot be connected again, so naming all pages refuses them all.
    expect(
      await failure(connectPlatform(second, 'facebook', { authData: { accessToken: userToken } }, deps)),
    ).toMatchObject({ code: 'CONFLICT' })
    const rest = await connectPlatform(
      second,
      'facebook',
      { authData: { accessToken: userToken }, options: { pageIds: [pages[0].id, pages[2].id] } },
      deps,
    )
    expect(rest.map((c) => c.platformData.platformChannelId).sort()).toEqual(
      [pages[0].id, pages[2].id].sort(),
    )
  })

  it('WhatsApp: the Embedded Signup payload, with the spec messages for a missing code', async () => {
    const scope = await newScope()
    const number = seedWhatsAppNumber(graph)
    expect(
      await failure(
        connectPlatform(
          scope,
          'whatsapp',
          { authData: { wabaId: number.wabaId, phoneNumberId: number.phoneNumberId } },
          deps,
        ),
      ),
    ).toMatchObject({ message: CHANNEL_TEXTS.whatsappNoCode })
    const [connection] = await connectPlatform(
      scope,
      'whatsapp',
      { authData: { code: number.code, wabaId: number.wabaId, phoneNumberId: number.phoneNumberId } },
      deps,
    )
    expect(connection).toMatchObject({
      platformName: 'whatsapp',
      status: 'connected',
      accountInfo: { displayName: 'Acme Support', phoneNumber: number.display, wabaId: number.wabaId },
    })
    expect(JSON.stringify(connection)).not.toContain(number.businessToken)
  })
})

describe('platform status', () => {
  it('per platform and overall; Telegram is always connected, a Meta channel in error is error', async () => {
    const scope = await newScope()
    expect((await platformStatus(scope, 'telegram')).status).toBe('disconnected')
    const [bot] = await connectBot(scope)
    const { userToken } = seedFacebookUser(graph, 1)
    const [page] = await connectPlatform(scope, 'facebook', { authData: { accessToken: userToken } }, deps)

    // A page whose token Graph refuses turns `error`; a bot in error still reports connected (spec section 4).
    graph.enqueue('debug_token', { status: 200, body: { data: { is_valid: false, scopes: [] } } })
    await refreshPlatform(scope, 'facebook', { forceRefresh: true }, deps)
    telegram.enqueue('getMe', { status: 401, description: 'Unauthorized' })
    await refreshPlatform(scope, 'telegram', { forceRefresh: true }, deps)

    const all = await allPlatformStatuses(scope)
    expect(all.map((p) => [p.platformName, p.status, p.supported, p.connections.length])).toEqual([
      ['facebook', 'error', true, 1],
      ['telegram', 'connected', true, 1],
      ['instagram', 'disconnected', false, 0],
      ['whatsapp', 'disconnected', true, 0],
      ['tiktok', 'disconnected', false, 0],
    ])
    const facebook = all[0].connections[0]
    expect(facebook).toMatchObject({
      connectionId: page.connectionId,
      status: 'error',
      platformData: { channelStatus: 'error', statusReason: CHANNEL_TEXTS.facebookInvalid },
    })
    expect(all[1].connections[0]).toMatchObject({
      connectionId: bot.connectionId,
      status: 'connected',
      platformData: { channelStatus: 'error', statusReason: CHANNEL_TEXTS.botTokenInvalid },
    })
    // Another organization sees none of it.
    const other = await newScope()
    expect((await allPlatformStatuses(other)).every((p) => p.connections.length === 0)).toBe(true)
  })
})

describe('refreshPlatform', () => {
  it('asks the platform again only when forced or stale, marks a refused token error and a working one active', async () => {
    const scope = await newScope()
    const [bot] = await connectBot(scope)
    const getMeCalls = () => telegram.calls.filter((c) => c.method === 'getMe').length

    const before = getMeCalls()
    const t0 = new Date()
    await refreshPlatform(scope, 'telegram', {}, deps, t0)
    expect(getMeCalls()).toBe(before + 1) // never checked since the connect
    await refreshPlatform(scope, 'telegram', {}, deps, new Date(t0.getTime() + 60_000))
    expect(getMeCalls()).toBe(before + 1) // checked a minute ago: not asked again

    telegram.enqueue('getMe', { status: 401, description: 'Unauthorized' })
    const refused = await refreshPlatform(scope, 'telegram', { forceRefresh: true }, deps)
    expect(refused.connections[0].platformData).toMatchObject({
      channelStatus: 'error',
      statusReason: CHANNEL_TEXTS.botTokenInvalid,
    })
    expect(getMeCalls()).toBe(before + 2)

    // A platform that cannot answer leaves the channel as it was and says why.
    telegram.enqueue('getMe', { status: 400, description: 'Bad Request: something odd' })
    expect(await failure(refreshPlatform(scope, 'telegram', { forceRefresh: true }, deps))).toMatchObject({
      code: 'UPSTREAM_ERROR',
    })
    expect((await getChannel(scope, bot.connectionId)).status).toBe('error')

    const healed = await refreshPlatform(
      scope,
      'telegram',
      { forceRefresh: true, connectionId: bot.connectionId },
      deps,
    )
    expect(healed.connections[0]).toMatchObject({
      status: 'connected',
      platformData: { channelStatus: 'active' },
    })
    expect(new Date(healed.connections[0].lastSync).getTime()).toBeGreaterThan(
      new Date(healed.connections[0].connectedAt).getTime(),
    )
  })

  it('WhatsApp: a token Graph refuses is error with a reason; the number details are read again when it works', async () => {
    const scope = await newScope()
    const number = seedWhatsAppNumber(graph)
    const authData = { code: number.code, wabaId: number.wabaId, phoneNumberId: number.phoneNumberId }
    await connectPlatform(scope, 'whatsapp', { authData }, deps)
    graph.enqueue(number.phoneNumberId, {
      status: 401,
      error: { message: 'Error validating access token', code: 190 },
    })
    const refused = await refreshPlatform(scope, 'whatsapp', { forceRefresh: true }, deps)
    expect(refused).toMatchObject({ status: 'error' })
    expect(refused.connections[0].platformData.statusReason).toBe(CHANNEL_TEXTS.whatsappInvalid)
    const healed = await refreshPlatform(scope, 'whatsapp', { forceRefresh: true }, deps)
    expect(healed.connections[0]).toMatchObject({
      status: 'connected',
      accountInfo: { phoneNumber: number.display },
    })
  })

  it('nothing to refresh or disconnect is "Connection not found" ("WhatsApp connection not found" for WhatsApp)', async () => {
    const scope = await newScope()
    expect(await failure(refreshPlatform(scope, 'telegram', {}, deps))).toMatchObject({
      code: 'NOT_FOUND',
      message: CHANNEL_TEXTS.connectionNotFound,
    })
    expect(await failure(disconnectPlatform(scope, 'whatsapp', {}, deps))).toMatchObject({
      code: 'NOT_FOUND',
      message: CHANNEL_TEXTS.whatsappNotFound,
    })
  })
})

describe('disconnectPlatform', () => {
  it('deletes one connection or all of them, releasing webhooks; another organization cannot touch them', async () => {
    const scope = await newScope()
    const tokens = [newBot(), newBot()]
    const [first] = await connectBot(scope, tokens[0])
    const [second] = await connectBot(scope, tokens[1])
    await setChannelWebhook(scope, first.connectionId, true, deps)
    expect(telegram.webhooks.get(tokens[0])?.url).toContain(first.connectionId)

    const intruder = await newScope()
    expect(
      await failure(disconnectPlatform(intruder, 'telegram', { connectionId: first.connectionId }, deps)),
    ).toMatchObject({ code: 'NOT_FOUND' })

    const one = await disconnectPlatform(scope, 'telegram', { connectionId: first.connectionId }, deps)
    expect(one).toEqual({ disconnected: [first.connectionId], warnings: [] })
    expect(telegram.webhooks.has(tokens[0])).toBe(false)
    expect((await platformStatus(scope, 'telegram')).connections.map((c) => c.connectionId)).toEqual([
      second.connectionId,
    ])
    await disconnectPlatform(scope, 'telegram', {}, deps)
    expect((await platformStatus(scope, 'telegram')).status).toBe('disconnected')
  })
})

describe('createChannels (the product API body)', () => {
  it('connects a bot and pages in one request, answering in its order', async () => {
    const scope = await newScope()
    const token = newBot('mixed_bot')
    const { pages } = seedFacebookUser(graph, 2)
    const created = await createChannels(
      scope,
      {
        channels: [
          { platformName: 'facebook', ...pages[1] },
          { platformName: 'telegram', botToken: token },
          { platformName: 'facebook', ...pages[0] },
        ],
      },
      deps,
    )
    expect(created.map((c) => c.platformChannelId)).toEqual([pages[1].id, token.split(':')[0], pages[0].id])
    const views = created.map((c) => toChannelView(c, deps))
    expect(JSON.stringify(views)).not.toContain(pages[0].accessToken)
  })
})

describe('switchPlatformWebhook', () => {
  it("turns a channel's webhook on and off on the platform the path names, and nowhere else", async () => {
    const scope = await newScope()
    const token = newBot()
    const [bot] = await connectBot(scope, token)
    expect(
      await failure(switchPlatformWebhook(scope, 'facebook', bot.connectionId, true, deps)),
    ).toMatchObject({ code: 'NOT_FOUND', message: CHANNEL_TEXTS.notFound })
    expect(await failure(switchPlatformWebhook(scope, 'icq', bot.connectionId, true, deps))).toMatchObject({
      code: 'INVALID_PLATFORM',
    })
    const on = await switchPlatformWebhook(scope, 'telegram', bot.connectionId, true, deps)
    expect(on.webhookSubscribed).toBe(true)
    expect(telegram.webhooks.get(token)?.secretToken).toBeTruthy()
    const off = await switchPlatformWebhook(scope, 'telegram', bot.connectionId, false, deps)
    expect(off.webhookSubscribed).toBe(false)
    expect(telegram.webhooks.has(token)).toBe(false)
    const intruder = await newScope()
    expect(
      await failure(switchPlatformWebhook(intruder, 'telegram', bot.connectionId, true, deps)),
    ).toMatchObject({ code: 'NOT_FOUND' })
  })
})

describe('the direct Facebook calls', () => {
  async function connectedPage() {
    const scope = await newScope()
    const { pages } = seedFacebookUser(graph, 2)
    await createChannels(scope, { channels: [{ platformName: 'facebook', ...pages[0] }] }, deps)
    return { scope, page: pages[0], notConnected: pages[1] }
  }

  it('subscribe: a connected page with its own token, with the fields asked for', async () => {
    const { scope, page, notConnected } = await connectedPage()
    const subscribe = (inScope: OrganizationScope, token: string, pageId: string) =>
      failure(
        subscribePageWebhook(inScope, { pageAccessToken: token, pageId, subscriptions: ['messages'] }, deps),
      )
    expect(await subscribe(scope, notConnected.accessToken, notConnected.id)).toMatchObject({
      code: 'NOT_FOUND',
      message: CHANNEL_TEXTS.connectionNotFound,
    })
    // Another page's token for this page: refused before Graph's subscribed_apps is called.
    expect(await subscribe(scope, notConnected.accessToken, page.id)).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: CHANNEL_TEXTS.facebookInvalid,
    })
    expect(await subscribe(await newScope(), page.accessToken, page.id)).toMatchObject({ code: 'NOT_FOUND' })

    const channel = await subscribePageWebhook(
      scope,
      {
        pageAccessToken: page.accessToken,
        pageId: page.id,
        subscriptions: ['messages', 'messaging_postbacks'],
      },
      deps,
    )
    expect(channel.webhookSubscribed).toBe(true)
    expect(graph.state.pageSubscriptions[page.id]).toEqual(['messages', 'messaging_postbacks'])
  })

  it('send-message: as the page the token acts as, split at 2,000 characters, recorded in the conversation', async () => {
    const { scope, page, notConnected } = await connectedPage()
    const recipientId = String(randomInt(1_000_000, 9_000_000))
    const text = `${'word '.repeat(700)}end`
    const sent = await sendPageMessage(
      scope,
      { pageAccessToken: page.accessToken, recipientId, message: { text } },
      deps,
    )
    expect(sent.parts).toBe(2)
    const delivered = graph.messages.filter((m) => m.to === recipientId)
    expect(delivered).toHaveLength(2)
    expect(
      delivered.every(
        (m) => m.platform === 'messenger' && m.from === page.id && m.messagingType === 'RESPONSE',
      ),
    ).toBe(true)
    expect(delivered.map((m) => m.text).join(' ')).toBe(text)
    expect(sent.messageId).toBe(delivered[0].id)

    const channel = await createdChannel(scope, page.id)
    const stored = await handle.db
      .select()
      .from(messages)
      .where(and(eq(messages.channelId, channel), eq(messages.direction, 'outbound')))
    expect(stored).toMatchObject([{ text, status: 'sent', platformMessageId: sent.messageId, sentParts: 2 }])

    expect(
      await failure(
        sendPageMessage(
          scope,
          { pageAccessToken: notConnected.accessToken, recipientId, message: 'hi' },
          deps,
        ),
      ),
    ).toMatchObject({ code: 'NOT_FOUND' })
    expect(
      await failure(
        sendPageMessage(scope, { pageAccessToken: 'EAAforged', recipientId, message: 'hi' }, deps),
      ),
    ).toMatchObject({ code: 'VALIDATION_ERROR', message: CHANNEL_TEXTS.facebookInvalid })
    const intruder = await newScope()
    expect(
      await failure(
        sendPageMessage(intruder, { pageAccessToken: page.accessToken, recipientId, message: 'hi' }, deps),
      ),
    ).toMatchObject({ code: 'NOT_FOUND' })
    expect(graph.messages.filter((m) => m.to === recipientId)).toHaveLength(2)
  })
})

async function createdChannel(scope: OrganizationScope, pageId: string): Promise<string> {
  const status = await platformStatus(scope, 'facebook')
  const connection = status.connections.find((c) => c.platformData.platformChannelId === pageId)
  if (!connection) throw new Error(`page ${pageId} is not connected`)
  return connection.connectionId
}
