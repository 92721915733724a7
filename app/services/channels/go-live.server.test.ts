import { randomBytes, randomInt, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '~/db/client.server'
import { createAgentSchema } from '~/lib/agents/schemas'
import { GO_LIVE_TEXTS } from '~/lib/channels/channels'
import { createAgent } from '~/services/agents/agents.server'
import { createLogger } from '~/utils/logger.server'
import { startTelegramFake } from '../../../tests/fakes/telegram-server'
import { openTestDatabase } from '../../../tests/setup/database'
import { telegramPlatformDeps } from '../../../tests/setup/platform-deps'
import { newOwnerScope } from '../../../tests/setup/scope'
import { getChannel } from './channels.server'
import { assignAndGoLive } from './go-live.server'
import { getChannelHealth } from './health.server'
import { connectTelegramBot } from './telegram.server'

let handle: DatabaseHandle
let fake: Awaited<ReturnType<typeof startTelegramFake>>
const logs: string[] = []
let deps: Parameters<typeof assignAndGoLive>[3]
beforeAll(async () => {
  ;[handle, fake] = await Promise.all([openTestDatabase(), startTelegramFake()])
  deps = {
    ...telegramPlatformDeps(fake.apiRoot),
    logger: createLogger({ level: 'warn', sink: (line) => logs.push(line) }),
  }
})
afterAll(async () => {
  await Promise.all([handle.close(), fake.close()])
})

/** An organization with a connected bot and an active agent. */
async function botAndAgent() {
  const scope = await newOwnerScope(handle.db)
  const token = `${randomInt(1_000_000_000, 9_000_000_000)}:${randomBytes(27).toString('base64url').slice(0, 35)}`
  fake.addBot({ token, username: `bakery_${randomInt(1e6)}_bot`, firstName: 'Bakery' })
  const channel = await connectTelegramBot(scope, { botToken: token }, deps)
  const agent = await createAgent(
    scope,
    createAgentSchema.parse({
      name: 'Bakery Helper',
      readableId: `bakery-${randomUUID().slice(0, 6)}`,
      modelType: 'simple',
      creativityLevel: 0.5,
      systemPrompt: 'Answer questions about the bakery.',
    }),
  )
  const methods = () => fake.calls.filter((call) => call.token === token).map((call) => call.method)
  return { scope, token, channel, agent, methods }
}

describe('assigning an agent is going live (issue 34)', () => {
  it('a connected channel counts as checked: its health is known right after connecting', async () => {
    const { scope, channel, methods } = await botAndAgent()
    const health = await getChannelHealth(scope, channel.id)
    expect(health.status).toBe('ok')
    expect(health.checkedAt).not.toBeNull()
    expect(methods()).toEqual(['getMe'])
  })

  it('an enabled agent turns receiving on once, and says so; assigning again changes nothing more', async () => {
    const { scope, token, channel, agent, methods } = await botAndAgent()
    const live = await assignAndGoLive(scope, channel.id, { agentId: agent.id }, deps)
    expect(live).toMatchObject({ note: GO_LIVE_TEXTS.receiving, warning: null })
    expect(live.channel).toMatchObject({ agentId: agent.id, agentEnabled: true, webhookSubscribed: true })
    expect(fake.webhooks.get(token)?.url).toBe(
      `https://replypilot.example.com/webhooks/telegram/${channel.id}`,
    )

    const again = await assignAndGoLive(scope, channel.id, { agentId: agent.id }, deps)
    expect(again).toMatchObject({ note: null, warning: null })
    expect(methods()).toEqual(['getMe', 'setWebhook'])
  })

  it('a disabled agent is assigned without turning receiving on; switching it on later goes live', async () => {
    const { scope, channel, agent, methods } = await botAndAgent()
    const off = await assignAndGoLive(scope, channel.id, { agentId: agent.id, agentEnabled: false }, deps)
    expect(off).toMatchObject({ note: null, warning: null })
    expect(off.channel.webhookSubscribed).toBe(false)
    expect(methods()).toEqual(['getMe'])

    const on = await assignAndGoLive(scope, channel.id, { agentId: agent.id, agentEnabled: true }, deps)
    expect(on.note).toBe(GO_LIVE_TEXTS.receiving)
    expect((await getChannel(scope, channel.id)).webhookSubscribed).toBe(true)
  })

  it('when the platform refuses, the assignment stands and the owner is told what to do; the log keeps why', async () => {
    const { scope, token, channel, agent } = await botAndAgent()
    fake.enqueue('setWebhook', {
      token,
      status: 400,
      description: 'Bad Request: bad webhook: Failed to resolve host',
    })
    const live = await assignAndGoLive(scope, channel.id, { agentId: agent.id }, deps)
    expect(live).toMatchObject({ note: null, warning: GO_LIVE_TEXTS.notReceiving })
    expect(live.warning).not.toMatch(/Bad Request|resolve host/)
    const stored = await getChannel(scope, channel.id)
    expect(stored).toMatchObject({ agentId: agent.id, webhookSubscribed: false })
    expect(
      logs.some((line) => line.includes('going live failed') && line.includes('Failed to resolve host')),
    ).toBe(true)
  })

  it("another organization's channel is not found and is left as it was", async () => {
    const mine = await botAndAgent()
    const theirs = await botAndAgent()
    await expect(
      assignAndGoLive(mine.scope, theirs.channel.id, { agentId: mine.agent.id }, deps),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(await getChannel(theirs.scope, theirs.channel.id)).toMatchObject({
      agentId: null,
      webhookSubscribed: false,
    })
    expect(theirs.methods()).toEqual(['getMe'])
  })
})
