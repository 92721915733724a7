import { randomBytes, randomInt, randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '~/db/client.server'
import { channels } from '~/db/schema'
import { createAgentSchema } from '~/lib/agents/schemas'
import { archiveAgent, createAgent } from '~/services/agents/agents.server'
import { decryptSecret, matchesSecretHash } from '~/utils/crypto.server'
import { startTelegramFake } from '../../../tests/fakes/telegram-server'
import { openTestDatabase } from '../../../tests/setup/database'
import { telegramPlatformDeps } from '../../../tests/setup/platform-deps'
import { newOwnerScope } from '../../../tests/setup/scope'
import { assignAgent, getChannel, listChannels, removeAgent, toChannelView } from './channels.server'
import { deleteChannel } from './delete-channel.server'
import { connectTelegramBot, setTelegramWebhook } from './telegram.server'
import type { PlatformDeps } from './platform-deps.server'

let handle: DatabaseHandle
let fake: Awaited<ReturnType<typeof startTelegramFake>>
let deps: PlatformDeps
beforeAll(async () => {
  ;[handle, fake] = await Promise.all([openTestDatabase(), startTelegramFake()])
  deps = telegramPlatformDeps(fake.apiRoot)
})
afterAll(async () => {
  await Promise.all([handle.close(), fake.close()])
})

const newScope = () => newOwnerScope(handle.db)

let botCount = 0
function newBot() {
  ++botCount
  // Random over a wide range: test files share one PostgreSQL database, and a bot id is unique product-wide.
  const id = randomInt(1_000_000_000, 9_000_000_000)
  const token = `${id}:${randomBytes(27).toString('base64url').slice(0, 35)}`
  fake.addBot({ token, username: `acme_${botCount}_bot`, firstName: 'Acme Support' })
  return token
}

describe('Telegram channels', () => {
  it('connects a bot with getMe, stores its metadata and the token encrypted, never in the view', async () => {
    const scope = await newScope()
    const token = newBot()
    const channel = await connectTelegramBot(scope, { botToken: token }, deps)
    expect(channel).toMatchObject({
      platformName: 'telegram',
      channelType: 'telegram_bot',
      status: 'active',
      agentEnabled: true,
    })
    expect(channel.metadata).toMatchObject({
      name: 'Acme Support',
      username: expect.stringMatching(/^acme_/),
    })
    expect(channel.accessTokenEncrypted).not.toContain(token)
    expect(decryptSecret(channel.accessTokenEncrypted ?? '', deps.encryptionKey)).toBe(token)
    const view = toChannelView(channel, deps)
    expect(JSON.stringify(view)).not.toContain(token)
    expect(JSON.stringify(view)).not.toContain(channel.accessTokenEncrypted ?? '')
  })

  it('refuses an unknown token with the spec message, and a bot connected twice anywhere', async () => {
    const scope = await newScope()
    const unknown = `123:${'a'.repeat(35)}`
    await expect(connectTelegramBot(scope, { botToken: unknown }, deps)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Bot token is invalid or expired',
    })
    const token = newBot()
    await connectTelegramBot(scope, { botToken: token }, deps)
    const other = await newScope()
    await expect(connectTelegramBot(other, { botToken: token }, deps)).rejects.toMatchObject({
      code: 'CONFLICT',
    })
  })

  it('subscribes the webhook with a per-channel secret that only its hash remembers, and unsubscribes', async () => {
    const scope = await newScope()
    const token = newBot()
    const channel = await connectTelegramBot(scope, { botToken: token }, deps)
    const on = await setTelegramWebhook(scope, channel.id, true, deps)
    const hook = fake.webhooks.get(token)
    expect(hook?.url).toBe(`https://replypilot.example.com/webhooks/telegram/${channel.id}`)
    expect(hook?.secretToken).toMatch(/^[\w-]{32,}$/)
    expect(matchesSecretHash(hook?.secretToken ?? null, on.webhookSecretHash)).toBe(true)
    expect(toChannelView(on, deps).webhookUrl).toBe(hook?.url)
    const off = await setTelegramWebhook(scope, channel.id, false, deps)
    expect(off).toMatchObject({ webhookSubscribed: false, webhookSecretHash: null })
    expect(fake.calls.filter((c) => c.token === token).map((c) => c.method)).toEqual([
      'getMe',
      'setWebhook',
      'deleteWebhook',
    ])
  })

  it('assigns only an active agent of the same organization; removes it', async () => {
    const scope = await newScope()
    const channel = await connectTelegramBot(scope, { botToken: newBot() }, deps)
    const agentInput = createAgentSchema.parse({
      name: 'Helper',
      readableId: `helper-${randomUUID().slice(0, 6)}`,
      modelType: 'simple',
      creativityLevel: 0.5,
      systemPrompt: 'Be helpful and brief.',
    })
    const agent = await createAgent(scope, agentInput)
    expect(await assignAgent(scope, channel.id, { agentId: agent.id, agentEnabled: false })).toMatchObject({
      agentId: agent.id,
      agentEnabled: false,
    })
    expect((await removeAgent(scope, channel.id)).agentId).toBeNull()

    const archived = await createAgent(scope, {
      ...agentInput,
      readableId: `old-${randomUUID().slice(0, 6)}`,
    })
    await archiveAgent(scope, archived.id)
    await expect(assignAgent(scope, channel.id, { agentId: archived.id })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    })

    const other = await newScope()
    const foreignAgent = await createAgent(other, {
      ...agentInput,
      readableId: `f-${randomUUID().slice(0, 6)}`,
    })
    await expect(assignAgent(scope, channel.id, { agentId: foreignAgent.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
  })

  it('deleting removes the webhook and the row; another organization can neither see nor delete it', async () => {
    const scope = await newScope()
    const token = newBot()
    const channel = await connectTelegramBot(scope, { botToken: token }, deps)
    await setTelegramWebhook(scope, channel.id, true, deps)
    const other = await newScope()
    await expect(getChannel(other, channel.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(deleteChannel(other, channel.id, deps)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(await listChannels(other)).toEqual([])

    expect(await deleteChannel(scope, channel.id, deps)).toEqual({})
    expect(fake.webhooks.has(token)).toBe(false)
    expect(await handle.db.select().from(channels).where(eq(channels.id, channel.id))).toEqual([])
  })
})
