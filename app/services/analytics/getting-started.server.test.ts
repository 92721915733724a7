import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { agents, channels, conversations, messages } from '~/db/schema'
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
  agentAssigned: false,
  webhookOn: false,
  messageReceived: false,
}

describe('getGettingStarted', () => {
  it('ticks each step as its rows appear, in the organization only', async () => {
    const db = getDb()
    const scope = await newOwnerScope(db, 'Setup', 'Setup shop')
    const other = await newOwnerScope(db, 'Other', 'Other shop')
    expect(await getGettingStarted(scope)).toEqual({ steps: none, channelId: null, complete: false })

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
    expect(await getGettingStarted(scope)).toEqual({ steps: none, channelId: null, complete: false })
    expect(await getGettingStarted(other)).toEqual({
      steps: {
        channelConnected: true,
        agentCreated: true,
        agentAssigned: true,
        webhookOn: true,
        messageReceived: true,
      },
      channelId: otherChannel.id,
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
      steps: { ...none, channelConnected: true },
      channelId: channel.id,
      complete: false,
    })

    const [agent] = await db
      .insert(agents)
      .values({ organizationId: scope.organizationId, readableId: 'desk', name: 'Desk', systemPrompt: 'Hi.' })
      .returning()
    await db.update(channels).set({ agentId: agent.id }).where(eq(channels.id, channel.id))
    expect((await getGettingStarted(scope)).steps).toEqual({
      ...none,
      channelConnected: true,
      agentCreated: true,
      agentAssigned: true,
    })

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
      steps: { webhookOn: true, messageReceived: false },
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
      steps: {
        channelConnected: true,
        agentCreated: true,
        agentAssigned: true,
        webhookOn: true,
        messageReceived: true,
      },
      channelId: channel.id,
      complete: true,
    })
  })

  it('links each step to where it is done', () => {
    expect(gettingStartedHref('channelConnected', null)).toBe('/channels')
    expect(gettingStartedHref('agentCreated', null)).toBe('/agents/new')
    expect(gettingStartedHref('agentAssigned', null)).toBe('/channels')
    expect(gettingStartedHref('webhookOn', 'c1')).toBe('/channels/c1')
  })
})
