import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { channels, conversations, messages } from '~/db/schema'
import { REPLY_FAILURES } from '~/lib/conversations/reply-pipeline'
import { archiveAgent } from '~/services/agents/agents.server'
import {
  authenticateTelegramWebhook,
  receiveTelegramUpdate,
} from '~/services/messages/inbound/telegram.server'
import { replyToMessage } from '~/services/messages/reply/reply.server'
import { createLogger } from '~/utils/logger.server'
import {
  messagesOf,
  startPipeline,
  textUpdate,
  type Pipeline,
  type TestBot,
} from '../../../tests/setup/pipeline'
import { newOwnerScope } from '../../../tests/setup/scope'
import { newBotToken, newTestAgent } from '../../../tests/setup/tenant'
import { assignAgent, updateChannel } from './channels.server'
import { checkAllChannelsHealth, checkChannelHealth, type HealthCheckDeps } from './health-check.server'
import { getChannelHealth, getChannelsHealth } from './health.server'
import { connectTelegramBot } from './telegram.server'
import { setChannelWebhook } from './webhook.server'

// The health check over real HTTP against the platform fakes, on the test database; replies called directly.
let p: Pipeline
let deps: HealthCheckDeps
beforeAll(async () => {
  p = await startPipeline({ worker: false })
  deps = { ...p.channelDeps, meta: { ...p.channelDeps.meta, configured: true } }
})
afterAll(async () => {
  await p.close()
})

let chats = 700_000
async function receive(bot: TestBot, text: string) {
  const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
  await receiveTelegramUpdate({ db: p.db, boss: p.boss, channel, body: textUpdate(++chats, text) })
  const inbound = (await messagesOf(p.db, bot.channelId, 'inbound')).at(-1)
  if (!inbound) throw new Error('not stored')
  return inbound
}
const sendsOf = (bot: TestBot) =>
  p.telegram.calls.filter((call) => call.token === bot.token && call.method === 'sendMessage')

describe('channel health: Telegram', () => {
  it('a token getMe refuses (401): needs attention with Reconnect, and no reply is attempted', async () => {
    const bot = await p.newBot()
    // Connecting had Telegram accept the token: checked then (issue 34).
    expect(await getChannelHealth(bot.scope, bot.channelId)).toMatchObject({ status: 'ok', reasons: [] })

    p.telegram.enqueue('getMe', { status: 401, description: 'Unauthorized', token: bot.token })
    const health = await checkChannelHealth(bot.scope, bot.channelId, deps)
    expect(health).toMatchObject({
      channelId: bot.channelId,
      platform: 'telegram',
      status: 'attention',
      reasons: [
        {
          code: 'token_invalid',
          message: expect.stringContaining('no longer accepts'),
          action: { label: 'Reconnect', href: '/channels/connect/telegram' },
        },
      ],
    })
    expect(Date.parse(health.checkedAt ?? '')).toBeGreaterThan(Date.now() - 60_000)
    const [row] = await p.db.select().from(channels).where(eq(channels.id, bot.channelId))
    expect(row).toMatchObject({ status: 'error', healthProblem: 'token_invalid' })

    // A message that comes now is left to a person with the reason: nothing is sent, the model is not asked.
    const before = p.model.requests.length
    const inbound = await receive(bot, 'anyone there?')
    expect(await replyToMessage(p.deps, inbound.id)).toEqual({
      outcome: 'not-answered',
      reason: REPLY_FAILURES.tokenInvalid,
    })
    expect(sendsOf(bot)).toEqual([])
    expect(p.model.requests.length).toBe(before)
    const [stored] = await p.db.select().from(messages).where(eq(messages.id, inbound.id))
    expect(stored).toMatchObject({ status: 'received', failureReason: REPLY_FAILURES.tokenInvalid })
    const [conversation] = await p.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, inbound.conversationId))
    expect(conversation).toMatchObject({
      state: 'needs_attention',
      attentionReason: REPLY_FAILURES.tokenInvalid,
    })

    // Check now, the token accepted again (the 401 was Telegram's last word on it): cleared, and answered again.
    expect(await checkChannelHealth(bot.scope, bot.channelId, deps)).toMatchObject({
      status: 'ok',
      reasons: [],
    })
    const [again] = await p.db.select().from(channels).where(eq(channels.id, bot.channelId))
    expect(again).toMatchObject({ status: 'active', statusReason: null, healthProblem: null })
    const next = await receive(bot, 'hello again')
    expect((await replyToMessage(p.deps, next.id)).outcome).toBe('replied')
    expect(sendsOf(bot)).toHaveLength(1)
  })

  it('Reconnect: the same bot with a new token takes it while its token is dead (refused otherwise)', async () => {
    const bot = await p.newBot()
    const fresh = newBotToken(Number(bot.token.split(':')[0]))
    p.telegram.addBot({ token: fresh, username: 'renewed_bot' })
    await expect(connectTelegramBot(bot.scope, { botToken: fresh }, p.channelDeps)).rejects.toMatchObject({
      code: 'CONFLICT',
    })
    p.telegram.enqueue('getMe', { status: 401, token: bot.token })
    await checkChannelHealth(bot.scope, bot.channelId, deps)
    const channel = await connectTelegramBot(bot.scope, { botToken: fresh }, p.channelDeps)
    expect(channel.id).toBe(bot.channelId)
    expect(await getChannelHealth(bot.scope, bot.channelId)).toMatchObject({ status: 'ok', reasons: [] })
    const inbound = await receive(bot, 'after the reconnect')
    expect((await replyToMessage(p.deps, inbound.id)).outcome).toBe('replied')
    expect(p.telegram.sentMessages(fresh)).toHaveLength(1)
  })

  it('an enabled agent on a channel whose webhook is off: "Switch on"; switching it on clears it', async () => {
    const bot = await p.newBot()
    await setChannelWebhook(bot.scope, bot.channelId, false, p.channelDeps)
    expect(await getChannelHealth(bot.scope, bot.channelId)).toMatchObject({
      status: 'attention',
      reasons: [
        {
          code: 'webhook_off',
          message: expect.stringContaining('webhook subscription is off'),
          action: { label: 'Switch on', href: `/channels/${bot.channelId}` },
        },
      ],
    })
    // The agent switched off on the channel: nobody is waiting for answers there.
    await updateChannel(bot.scope, bot.channelId, { agentEnabled: false })
    expect((await getChannelHealth(bot.scope, bot.channelId)).reasons).toEqual([])
    await updateChannel(bot.scope, bot.channelId, { agentEnabled: true })
    await setChannelWebhook(bot.scope, bot.channelId, true, p.channelDeps)
    expect(await getChannelHealth(bot.scope, bot.channelId)).toMatchObject({ status: 'ok', reasons: [] })
  })

  it('an archived agent: "Choose another agent"; assigning an active one clears it', async () => {
    const bot = await p.newBot()
    await archiveAgent(bot.scope, bot.agentId ?? '')
    expect((await getChannelHealth(bot.scope, bot.channelId)).reasons).toEqual([
      {
        code: 'agent_unavailable',
        message: 'The assigned agent “Helper” is archived: it answers nobody.',
        action: { label: 'Choose another agent', href: `/channels/${bot.channelId}` },
      },
    ])
    const other = await newTestAgent(bot.scope, { name: 'Other' })
    await assignAgent(bot.scope, bot.channelId, { agentId: other.id })
    expect((await getChannelHealth(bot.scope, bot.channelId)).reasons).toEqual([])
  })

  it('the last deliveries failed: "See the conversations"; one delivered clears it', async () => {
    const bot = await p.newBot()
    for (let i = 0; i < 3; i++) {
      const inbound = await receive(bot, `fails ${i}`)
      p.telegram.enqueue('sendMessage', {
        status: 400,
        description: 'Bad Request: chat not found',
        token: bot.token,
      })
      expect((await replyToMessage(p.deps, inbound.id)).outcome).toBe('failed')
      const { status } = await getChannelHealth(bot.scope, bot.channelId)
      expect(status).toBe(i < 2 ? 'ok' : 'attention')
    }
    expect((await getChannelHealth(bot.scope, bot.channelId)).reasons).toEqual([
      {
        code: 'deliveries_failing',
        message: 'The last 3 answers on this channel could not be delivered.',
        action: {
          label: 'See the conversations',
          href: `/conversations?channelId=${bot.channelId}&state=needs_attention`,
        },
      },
    ])
    const inbound = await receive(bot, 'delivered')
    expect((await replyToMessage(p.deps, inbound.id)).outcome).toBe('replied')
    expect((await getChannelHealth(bot.scope, bot.channelId)).reasons).toEqual([])
  })
})

describe('channel health: Meta', () => {
  const GRANTED = ['pages_messaging', 'pages_manage_metadata', 'pages_show_list']

  it('debug_token and the page subscription: valid, revoked, missing permissions, unsubscribed', async () => {
    const page = await p.newMetaChannel('facebook')
    const user = Object.values(p.graph.state.users).find((u) =>
      u.pages.some((pg) => pg.accessToken === page.token),
    )
    if (!user) throw new Error('no page owner')
    user.permissions = GRANTED
    await setChannelWebhook(page.scope, page.channelId, true, p.channelDeps)
    expect(await checkChannelHealth(page.scope, page.channelId, deps)).toMatchObject({
      status: 'ok',
      reasons: [],
    })
    const asked = p.graph.calls.filter(
      (call) => call.path.startsWith('/debug_token') || call.path.endsWith('subscribed_apps'),
    )
    expect(asked.map((call) => `${call.method} ${call.path}`).slice(-2)).toEqual([
      'GET /debug_token',
      `GET /${page.platformChannelId}/subscribed_apps`,
    ])

    // The page unsubscribed from the app on Facebook's side: "Switch on" (subscribing again clears it).
    delete p.graph.state.pageSubscriptions[page.platformChannelId]
    expect((await checkChannelHealth(page.scope, page.channelId, deps)).reasons).toMatchObject([
      { code: 'subscription_missing', action: { label: 'Switch on', href: `/channels/${page.channelId}` } },
    ])
    await setChannelWebhook(page.scope, page.channelId, true, p.channelDeps)
    expect((await checkChannelHealth(page.scope, page.channelId, deps)).status).toBe('ok')

    // A permission taken back: Reconnect, naming it.
    p.graph.state.tokenScopes[page.token] = ['pages_manage_metadata']
    expect((await checkChannelHealth(page.scope, page.channelId, deps)).reasons).toEqual([
      {
        code: 'permissions_missing',
        message: 'The channel’s token lacks permissions it needs to answer: pages_messaging.',
        action: { label: 'Reconnect', href: '/channels' },
      },
    ])
    delete p.graph.state.tokenScopes[page.token]

    // The token revoked (the person changed their password): Reconnect; the channel is in error.
    p.graph.state.revokedTokens.push(page.token)
    expect((await checkChannelHealth(page.scope, page.channelId, deps)).reasons).toMatchObject([
      { code: 'token_invalid', action: { label: 'Reconnect' } },
    ])
    const [row] = await p.db.select().from(channels).where(eq(channels.id, page.channelId))
    expect(row).toMatchObject({ status: 'error', statusReason: 'Facebook connection is no longer valid' })
    p.graph.state.revokedTokens = p.graph.state.revokedTokens.filter((token) => token !== page.token)
    expect((await checkChannelHealth(page.scope, page.channelId, deps)).status).toBe('ok')
  })

  it('a WhatsApp number: its business token and its WABA subscription', async () => {
    const number = await p.newMetaChannel('whatsapp')
    const wabaId = p.graph.state.phoneNumbers[number.platformChannelId].wabaId
    p.graph.seed({ wabas: { [wabaId]: { name: 'Shop WABA' } } })
    await p.db
      .update(channels)
      .set({ metadata: { name: 'Shop', wabaId }, webhookSubscribed: true })
      .where(eq(channels.id, number.channelId))
    expect((await checkChannelHealth(number.scope, number.channelId, deps)).reasons).toMatchObject([
      { code: 'subscription_missing' },
    ])
    p.graph.state.wabaSubscriptions.push(wabaId)
    expect((await checkChannelHealth(number.scope, number.channelId, deps)).status).toBe('ok')
  })

  it('Meta not configured: the channel is not asked and keeps what connecting found', async () => {
    const page = await p.newMetaChannel('facebook', { agent: false })
    const connected = await getChannelHealth(page.scope, page.channelId)
    const unconfigured = { ...deps, meta: { ...deps.meta, configured: false } }
    expect(await checkChannelHealth(page.scope, page.channelId, unconfigured)).toEqual(connected)
  })
})

describe('getChannelsHealth', () => {
  it("lists the organization's channels only, with their health", async () => {
    const scope = await newOwnerScope(p.db)
    const foreign = await p.newBot({ agent: false }) // another organization's bot: never in this list
    const token = newBotToken()
    p.telegram.addBot({ token, username: 'own_bot', firstName: 'Own' })
    const own = await connectTelegramBot(scope, { botToken: token }, p.channelDeps)
    const list = await getChannelsHealth(p.db, scope.organizationId)
    expect(list).toEqual([
      {
        channelId: own.id,
        name: 'Own',
        platform: 'telegram',
        status: 'ok',
        reasons: [],
        checkedAt: own.healthCheckedAt?.toISOString(),
      },
    ])
    expect(list.map((h) => h.channelId)).not.toContain(foreign.channelId)
    expect(await getChannelsHealth(p.db, 'not-a-uuid')).toEqual([])
  })

  it('the scheduled pass checks every channel it can ask', async () => {
    const bot = await p.newBot()
    p.telegram.enqueue('getMe', { status: 401, token: bot.token })
    const logger = createLogger({ level: 'error', sink: () => undefined })
    const result = await checkAllChannelsHealth(
      { ...deps, db: p.db, logger },
      { organizationId: bot.scope.organizationId },
    )
    expect(result).toEqual({ checked: 1, failed: 0 })
    expect((await getChannelHealth(bot.scope, bot.channelId)).reasons[0]?.code).toBe('token_invalid')
  })
})
