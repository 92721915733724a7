import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { agentRuns, agents, channels, conversations, messages } from '~/db/schema'
import { gettingStartedHref } from '~/lib/analytics/dashboard'
import { withTestDatabase } from '../../../tests/setup/database'
import { newOwnerScope } from '../../../tests/setup/scope'
import { getGettingStarted } from './getting-started.server'

// The checklist ticks itself from what exists: each step is asserted as the rows that make it appear, and another
// organization's rows tick nothing.
const getDb = withTestDatabase()

const none = {
  channelConnected: false,
  agentCreated: false,
  agentTried: false,
  live: false,
  messageReceived: false,
}
const all = {
  channelConnected: true,
  agentCreated: true,
  agentTried: true,
  live: true,
  messageReceived: true,
}
const empty = { steps: none, channelId: null, agentId: null, complete: false }

describe('getGettingStarted', () => {
  it('ticks each step as its rows appear, in the organization only', async () => {
    const db = getDb()
    const scope = await newOwnerScope(db, 'Setup', 'Setup shop')
    const other = await newOwnerScope(db, 'Other', 'Other shop')
    expect(await getGettingStarted(scope)).toEqual(empty)

    // Another organization's channel, agent and message do not count here.
    const [otherAgent] = await db
      .insert(agents)
      .values({
        organizationId: other.organizationId,
        readableId: 'other',
        name: 'Other',
        systemPrompt: 'Hi.',
      })
      .returning()
    const [otherChannel] = await db
      .insert(channels)
      .values({
        organizationId: other.organizationId,
        platformName: 'telegram',
        channelType: 'telegram_bot',
        platformChannelId: randomUUID(),
        agentId: otherAgent.id,
        webhookSubscribed: true,
      })
      .returning()
    const [otherConversation] = await db
      .insert(conversations)
      .values({ organizationId: other.organizationId, channelId: otherChannel.id, platformChatId: '1' })
      .returning()
    await db.insert(messages).values({
      organizationId: other.organizationId,
      channelId: otherChannel.id,
      conversationId: otherConversation.id,
      direction: 'inbound',
      text: 'Hello',
      status: 'replied',
    })
    await db.insert(agentRuns).values({
      executionId: randomUUID(),
      organizationId: other.organizationId,
      agentId: otherAgent.id,
      input: 'Hello',
    })
    expect(await getGettingStarted(scope)).toEqual(empty)
    expect(await getGettingStarted(other)).toEqual({
      steps: all,
      channelId: otherChannel.id,
      agentId: otherAgent.id,
      complete: true,
    })

    const [channel] = await db
      .insert(channels)
      .values({
        organizationId: scope.organizationId,
        platformName: 'telegram',
        channelType: 'telegram_bot',
        platformChannelId: randomUUID(),
      })
      .returning()
    expect(await getGettingStarted(scope)).toEqual({
      ...empty,
      steps: { ...none, channelConnected: true },
      channelId: channel.id,
    })

    const [agent] = await db
      .insert(agents)
      .values({ organizationId: scope.organizationId, readableId: 'desk', name: 'Desk', systemPrompt: 'Hi.' })
      .returning()
    expect(await getGettingStarted(scope)).toMatchObject({
      steps: { ...none, channelConnected: true, agentCreated: true },
      agentId: agent.id,
    })
    // Tried: the agent has run (a test in its dialog, or an answer).
    await db.insert(agentRuns).values({
      executionId: randomUUID(),
      organizationId: scope.organizationId,
      agentId: agent.id,
      input: 'Do you open on Sundays?',
    })
    expect((await getGettingStarted(scope)).steps.agentTried).toBe(true)

    // Live only with an enabled agent on a channel that receives its messages.
    await db
      .update(channels)
      .set({ agentId: agent.id, agentEnabled: false, webhookSubscribed: true })
      .where(eq(channels.id, channel.id))
    expect((await getGettingStarted(scope)).steps.live).toBe(false)
    await db
      .update(channels)
      .set({ agentEnabled: true, webhookSubscribed: false })
      .where(eq(channels.id, channel.id))
    expect((await getGettingStarted(scope)).steps.live).toBe(false)
    await db.update(channels).set({ webhookSubscribed: true }).where(eq(channels.id, channel.id))
    const [conversation] = await db
      .insert(conversations)
      .values({ organizationId: scope.organizationId, channelId: channel.id, platformChatId: '2' })
      .returning()
    // Our own answer is not a customer's message.
    await db.insert(messages).values({
      organizationId: scope.organizationId,
      channelId: channel.id,
      conversationId: conversation.id,
      direction: 'outbound',
      text: 'Welcome',
      status: 'sent',
    })
    expect(await getGettingStarted(scope)).toMatchObject({
      steps: { live: true, messageReceived: false },
      complete: false,
    })

    await db.insert(messages).values({
      organizationId: scope.organizationId,
      channelId: channel.id,
      conversationId: conversation.id,
      direction: 'inbound',
      text: 'Hello',
      status: 'received',
    })
    expect(await getGettingStarted(scope)).toEqual({
      steps: all,
      channelId: channel.id,
      agentId: agent.id,
      complete: true,
    })
  })

  it('links each step to where it is done', () => {
    const nothing = { channelId: null, agentId: null }
    const both = { channelId: 'c1', agentId: 'a1' }
    expect(gettingStartedHref('channelConnected', nothing)).toBe('/channels')
    expect(gettingStartedHref('agentCreated', nothing)).toBe('/agents/new')
    expect(gettingStartedHref('agentTried', nothing)).toBe('/agents')
    expect(gettingStartedHref('agentTried', both)).toBe('/agents/a1/test')
    expect(gettingStartedHref('live', nothing)).toBe('/channels')
    expect(gettingStartedHref('live', both)).toBe('/channels/c1')
  })
})
