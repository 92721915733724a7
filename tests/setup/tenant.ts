import { randomBytes, randomInt, randomUUID } from 'node:crypto'
import type { AgentBehaviour } from '~/lib/agents/behaviour'
import { createAgentSchema } from '~/lib/agents/schemas'
import { createAgent } from '~/services/agents/agents.server'
import { insertChannel } from '~/services/channels/channels.server'
import {
  connectTelegramBot,
  setTelegramWebhook,
  type TelegramDeps,
} from '~/services/channels/telegram.server'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import type { GraphFake } from '../fakes/graph-server'
import type { TelegramFake } from '../fakes/telegram-server'

/**
 * An agent on the echoing `simple` tier of the model fake. It answers each message at once (no burst wait) unless
 * the test gives it behaviour of its own.
 */
export function newTestAgent(
  scope: OrganizationScope,
  {
    name = 'Helper',
    creativityLevel = 0.3,
    systemPrompt = 'Answer briefly.',
    ...behaviour
  }: { name?: string; creativityLevel?: number; systemPrompt?: string } & Partial<AgentBehaviour> = {},
) {
  const readableId = `${name.split(' ')[0].toLowerCase()}-${randomUUID().slice(0, 8)}`
  return createAgent(scope, {
    ...createAgentSchema.parse({ name, readableId, modelType: 'simple', creativityLevel, systemPrompt }),
    burstWaitSeconds: 0,
    ...behaviour,
  })
}

/**
 * A bot token of the shape Telegram issues. The bot id is random over a wide range: test files share one
 * PostgreSQL database, and a bot is connected once product-wide.
 */
export function newBotToken(botId = randomInt(1_000_000_000, 9_000_000_000)) {
  return `${botId}:${randomBytes(27).toString('base64url').slice(0, 35)}`
}

/**
 * A bot known to the Telegram fake, connected in `scope` with its webhook subscription on; `secret` is the one
 * the fake delivers with (empty with long polling, which sets none).
 */
export async function connectTestBot(
  scope: OrganizationScope,
  telegram: TelegramFake,
  deps: TelegramDeps,
  { token = newBotToken(), username = `test_${randomInt(1e6)}_bot`, firstName = 'Support' } = {},
) {
  telegram.addBot({ token, username, firstName })
  const channel = await connectTelegramBot(scope, { botToken: token }, deps)
  await setTelegramWebhook(scope, channel.id, true, deps)
  return { token, channel, channelId: channel.id, secret: telegram.webhooks.get(token)?.secretToken ?? '' }
}

/**
 * A Facebook page or WhatsApp number stored as connected in `scope`; with `graph`, its token is also one the
 * Graph fake knows (so that the app can answer through it). Ids are random over a wide range: a page or number
 * is connected once product-wide.
 */
export async function insertTestMetaChannel(
  scope: OrganizationScope,
  deps: { encryptionKey: string },
  platform: 'facebook' | 'whatsapp',
  graph?: GraphFake,
) {
  const platformChannelId = String(randomInt(1_000_000_000, 9_000_000_000))
  const token = `EAA${randomBytes(16).toString('hex')}`
  const someone = () => String(randomInt(1_000_000_000, 9_000_000_000))
  if (graph && platform === 'facebook') {
    const pages = [{ id: platformChannelId, name: 'Shop', accessToken: token }]
    graph.seed({ users: { [`u-${token}`]: { id: someone(), pages } } })
  } else if (graph) {
    const phone = { verified_name: 'Shop', display_phone_number: '+1 555 0100', wabaId: someone() }
    graph.seed({ businessTokens: [token], phoneNumbers: { [platformChannelId]: phone } })
  }
  const channel = await insertChannel(scope, deps, {
    platformName: platform,
    channelType: platform === 'facebook' ? 'facebook_page' : 'whatsapp_number',
    platformChannelId,
    accessToken: token,
    metadata: { name: 'Shop' },
  })
  return { platformChannelId, token, channel, channelId: channel.id }
}
