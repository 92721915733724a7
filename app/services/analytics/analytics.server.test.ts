import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '~/db/client.server'
import { agentRuns, agents, channels, conversations, messages, organizations } from '~/db/schema'
import { ANALYTICS_TEXTS, analyticsQuerySchema, type AnalyticsQuery } from '~/lib/analytics/analytics'
import { REPLY_FAILURES } from '~/lib/conversations/reply-pipeline'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { withTestDatabase } from '../../../tests/setup/database'
import { newOwnerScope } from '../../../tests/setup/scope'
import { getAnalytics } from './analytics.server'
import { rollUpAnalytics } from './rollup.server'
import { RESPONSE_BIN_ERROR } from './response-histogram'
import { updateOrganizationTimeZone } from '~/services/organizations/organizations.server'

/** A first-response time read from the histogram: within a bin's error of the exact time (response-histogram.ts). */
const about = (seconds: number) => expect.closeTo(seconds, -Math.log10(2 * seconds * RESPONSE_BIN_ERROR))

// A known set of conversations across two days, near midnight in UTC and in New York (UTC-4 on these days), and
// every figure asserted exactly in both zones. Rows are inserted as the pipeline leaves them (statuses, runs,
// answers), in time order (sequence follows insertion).
const getDb = withTestDatabase()

const NO_AGENT = 'No agent is assigned to this channel'
const TIMEOUT = 'The model did not answer in time'

type Tenant = {
  scope: OrganizationScope
  chA: string
  chB: string
  agentX: string
  agentY: string
  conv: Record<string, string>
}

async function seedTenant(db: Database, name: string): Promise<Tenant> {
  const scope = await newOwnerScope(db, name, `${name}'s shop`)
  const org = scope.organizationId
  const [agentX, agentY] = await db
    .insert(agents)
    .values(
      ['X', 'Y'].map((n) => ({
        organizationId: org,
        readableId: `agent-${n.toLowerCase()}-${randomUUID().slice(0, 6)}`,
        name: `Agent ${n}`,
        systemPrompt: 'Help.',
      })),
    )
    .returning({ id: agents.id })
  const [chA, chB] = await db
    .insert(channels)
    .values([
      {
        organizationId: org,
        platformName: 'telegram' as const,
        channelType: 'telegram_bot' as const,
        platformChannelId: randomUUID(),
        agentId: agentX.id,
        metadata: { name: 'Bot A' },
      },
      {
        organizationId: org,
        platformName: 'whatsapp' as const,
        channelType: 'whatsapp_number' as const,
        platformChannelId: randomUUID(),
        agentId: agentY.id,
        metadata: { name: 'Number B' },
      },
    ])
    .returning({ id: channels.id })

  const conv: Record<string, string> = {}
  const conversation = async (key: string, channelId: string, at: string, attentionReason?: string) => {
    const [row] = await db
      .insert(conversations)
      .values({
        organizationId: org,
        channelId,
        platformChatId: `${key}-${randomUUID()}`,
        createdAt: new Date(at),
        attentionReason,
        attentionAt: attentionReason ? new Date(at) : undefined,
      })
      .returning({ id: conversations.id })
    conv[key] = row.id
    return row.id
  }
  const run = async (
    agentId: string,
    channelId: string | null,
    at: string,
    model: string,
    promptTokens: number,
    completionTokens: number,
    extra: { handoffReason?: string; testMode?: boolean } = {},
  ) => {
    const [row] = await db
      .insert(agentRuns)
      .values({
        executionId: randomUUID(),
        organizationId: org,
        agentId,
        input: 'in',
        modelUsed: model,
        promptTokens,
        completionTokens,
        totalTokens: promptTokens + completionTokens,
        context: channelId ? { channelId } : null,
        createdAt: new Date(at),
        ...extra,
      })
      .returning({ id: agentRuns.id })
    return row.id
  }
  const inbound = async (
    conversationId: string,
    channelId: string,
    at: string,
    status: 'replied' | 'received' | 'failed' | 'queued',
    failureReason?: string,
  ) => {
    const [row] = await db
      .insert(messages)
      .values({
        organizationId: org,
        channelId,
        conversationId,
        direction: 'inbound',
        text: 'hi',
        status,
        failureReason,
        createdAt: new Date(at),
      })
      .returning({ id: messages.id })
    return row.id
  }
  const outbound = async (
    conversationId: string,
    channelId: string,
    at: string,
    by: { runId?: string; replyTo?: string; authorUserId?: string; clientKey?: string },
  ) => {
    await db.insert(messages).values({
      organizationId: org,
      channelId,
      conversationId,
      direction: 'outbound',
      text: 'answer',
      status: 'sent',
      agentRunId: by.runId,
      replyToMessageId: by.replyTo,
      authorUserId: by.authorUserId,
      clientKey: by.clientKey,
      createdAt: new Date(at),
      platformSentAt: new Date(at),
    })
  }

  // c6 (B): 2025-03-10 03:00Z, the 9th in New York. Answered by the AI in 60 s (gpt-4o).
  const c6 = await conversation('c6', chB.id, '2025-03-10T03:00:00Z')
  const m10 = await inbound(c6, chB.id, '2025-03-10T03:00:00Z', 'replied')
  const r6 = await run(agentY.id, chB.id, '2025-03-10T03:00:50Z', 'gpt-4o', 1000, 100)
  await outbound(c6, chB.id, '2025-03-10T03:01:00Z', { runId: r6, replyTo: m10 })
  // c1 (A): 10:00Z. Answered in 30 s; then a burst of two answered once, with a handoff.
  const c1 = await conversation('c1', chA.id, '2025-03-10T10:00:00Z')
  const m1 = await inbound(c1, chA.id, '2025-03-10T10:00:00Z', 'replied')
  const r1 = await run(agentX.id, chA.id, '2025-03-10T10:00:29Z', 'gpt-4o-mini', 1000, 200)
  await outbound(c1, chA.id, '2025-03-10T10:00:30Z', { runId: r1, replyTo: m1 })
  await inbound(c1, chA.id, '2025-03-10T10:05:00Z', 'replied')
  const m3 = await inbound(c1, chA.id, '2025-03-10T10:05:10Z', 'replied')
  const r2 = await run(agentX.id, chA.id, '2025-03-10T10:05:39Z', 'gpt-4o-mini', 2000, 400, {
    handoffReason: 'Wants a person',
  })
  await outbound(c1, chA.id, '2025-03-10T10:05:40Z', { runId: r2, replyTo: m3 })
  // A test on the Agents screen: never counted.
  await run(agentX.id, null, '2025-03-10T11:00:00Z', 'gpt-4o-mini', 9999, 9999, { testMode: true })
  // c2 (A): 2025-03-11 02:30Z, the 10th at 22:30 in New York. Paused: a person answers in 120 s, the next is not.
  const c2 = await conversation('c2', chA.id, '2025-03-11T02:30:00Z')
  await inbound(c2, chA.id, '2025-03-11T02:30:00Z', 'received', REPLY_FAILURES.aiPaused)
  await outbound(c2, chA.id, '2025-03-11T02:32:00Z', { authorUserId: scope.userId, clientKey: randomUUID() })
  await inbound(c2, chA.id, '2025-03-11T02:40:00Z', 'received', REPLY_FAILURES.aiPaused)
  // c3 (B): 12:00Z. The reply failed (the run's tokens count, on a model without a price); the fallback notice
  // went out, which is no answer; the conversation needs attention.
  const c3 = await conversation('c3', chB.id, '2025-03-11T12:00:00Z', TIMEOUT)
  await inbound(c3, chB.id, '2025-03-11T12:00:00Z', 'failed', TIMEOUT)
  await run(agentY.id, chB.id, '2025-03-11T12:00:10Z', 'local-llama', 500, 50)
  await outbound(c3, chB.id, '2025-03-11T12:00:20Z', { clientKey: `fallback:${randomUUID()}` })
  // c4 (B): 15:00Z. One message with no agent, one still queued.
  const c4 = await conversation('c4', chB.id, '2025-03-11T15:00:00Z')
  await inbound(c4, chB.id, '2025-03-11T15:00:00Z', 'received', NO_AGENT)
  await inbound(c4, chB.id, '2025-03-11T15:01:00Z', 'queued')
  // c5 (A): 2025-03-12 03:00Z, the 11th at 23:00 in New York. Answered by the AI in 5 s.
  const c5 = await conversation('c5', chA.id, '2025-03-12T03:00:00Z')
  const m9 = await inbound(c5, chA.id, '2025-03-12T03:00:00Z', 'replied')
  const r5 = await run(agentX.id, chA.id, '2025-03-12T03:00:01Z', 'gpt-4o-mini', 100, 10)
  await outbound(c5, chA.id, '2025-03-12T03:00:05Z', { runId: r5, replyTo: m9 })
  // Resolved: c6 by the AI alone (the 10th), c1 after its handoff (the 11th), c5 after the period (the 12th).
  const resolve = (id: string, at: string, neededPerson: boolean) =>
    db
      .update(conversations)
      .set({ status: 'resolved', resolvedAt: new Date(at), neededPerson })
      .where(eq(conversations.id, id))
  await resolve(c6, '2025-03-10T20:00:00Z', false)
  await resolve(c1, '2025-03-11T08:00:00Z', true)
  await resolve(c5, '2025-03-12T09:00:00Z', false)
  return { scope, chA: chA.id, chB: chB.id, agentX: agentX.id, agentY: agentY.id, conv }
}

let t: Tenant
let other: Tenant
beforeAll(async () => {
  const db = getDb()
  // Another organization with the same rows on the same days: never in the first one's figures.
  other = await seedTenant(db, 'Other')
  t = await seedTenant(db, 'Ada')
})

const query = (q: Partial<AnalyticsQuery> = {}) =>
  analyticsQuerySchema.parse({ from: '2025-03-10', to: '2025-03-11', ...q })

const zeroOutcomes = {
  received: 0,
  answeredByAi: 0,
  answeredByPerson: 0,
  failed: 0,
  paused: 0,
  noAgent: 0,
  noKnowledge: 0,
  notAnswered: 0,
  waiting: 0,
}

describe('getAnalytics', () => {
  it('counts every figure of the period in UTC', async () => {
    await updateOrganizationTimeZone(t.scope, 'UTC')
    const a = await getAnalytics(t.scope, query())
    expect(a.period).toEqual({
      from: '2025-03-10',
      to: '2025-03-11',
      timeZone: 'UTC',
      granularity: 'day',
      channelId: null,
      agentId: null,
    })
    expect(a.totals).toEqual({
      received: 9,
      answeredByAi: 4,
      answeredByPerson: 1,
      failed: 1,
      paused: 1,
      noAgent: 1,
      noKnowledge: 0,
      notAnswered: 3,
      waiting: 1,
      aiAnswerRate: 4 / 9,
      // c1 30 s, c2 120 s, c6 60 s; c3 and c4 not answered.
      firstResponseMedianSeconds: about(60),
      firstResponseP90Seconds: about(108),
      conversationsAnswered: 3,
      conversationsStarted: 5,
      handoffs: 1,
      needingAttention: 1,
      conversationsResolved: 2,
      resolvedByAi: 1,
      aiResolutionRate: 0.5,
      promptTokens: 4500,
      completionTokens: 750,
      totalTokens: 5250,
      // gpt-4o-mini 3000/600 at 0.15/0.60, gpt-4o 1000/100 at 2.5/10; local-llama has no price.
      cost: 0.00431,
      unpricedTokens: 550,
      models: [
        { model: 'gpt-4o-mini', promptTokens: 3000, completionTokens: 600, cost: 0.00081 },
        { model: 'gpt-4o', promptTokens: 1000, completionTokens: 100, cost: 0.0035 },
        { model: 'local-llama', promptTokens: 500, completionTokens: 50, cost: null },
      ],
    })
    expect(a.series.map((p) => p.bucket)).toEqual(['2025-03-10', '2025-03-11'])
    expect(a.series[0]).toMatchObject({
      ...zeroOutcomes,
      received: 4,
      answeredByAi: 4,
      conversationsStarted: 2,
      firstResponseMedianSeconds: about(45),
      handoffs: 1,
      promptTokens: 4000,
      completionTokens: 700,
      cost: 0.00431,
      unpricedTokens: 0,
    })
    expect(a.series[1]).toMatchObject({
      received: 5,
      answeredByAi: 0,
      answeredByPerson: 1,
      failed: 1,
      paused: 1,
      noAgent: 1,
      notAnswered: 3,
      waiting: 1,
      conversationsStarted: 3,
      firstResponseMedianSeconds: about(120),
      firstResponseP90Seconds: about(120),
      handoffs: 0,
      promptTokens: 500,
      completionTokens: 50,
      cost: 0,
      unpricedTokens: 550,
    })
    // Rows inserted in one statement tie on their creation: found by id, not by place.
    const chA = a.channels.find((c) => c.id === t.chA)
    const chB = a.channels.find((c) => c.id === t.chB)
    expect(chA).toMatchObject({
      id: t.chA,
      name: 'Bot A',
      platformName: 'telegram',
      received: 5,
      answeredByAi: 3,
      answeredByPerson: 1,
      paused: 1,
      aiAnswerRate: 3 / 5,
      conversationsStarted: 2,
      firstResponseMedianSeconds: about(75),
      promptTokens: 3000,
      completionTokens: 600,
      cost: 0.00081,
      trend: [3, 2],
    })
    expect(chB).toMatchObject({
      id: t.chB,
      name: 'Number B',
      received: 4,
      answeredByAi: 1,
      failed: 1,
      noAgent: 1,
      waiting: 1,
      aiAnswerRate: 1 / 4,
      conversationsStarted: 3,
      firstResponseMedianSeconds: about(60),
      promptTokens: 1500,
      completionTokens: 150,
      cost: 0.0035,
      unpricedTokens: 550,
      trend: [1, 3],
    })
    expect(
      a.agents
        .toSorted((x, y) => x.name.localeCompare(y.name))
        .map((r) => [r.name, r.received, r.answeredByAi, r.totalTokens, r.handoffs, r.trend]),
    ).toEqual([
      ['Agent X', 5, 3, 3600, 1, [3, 2]],
      ['Agent Y', 4, 1, 1650, 0, [1, 3]],
    ])
    expect(a.failureReasons).toEqual([
      { reason: NO_AGENT, kind: 'not_answered', messages: 1, conversationIds: [t.conv.c4] },
      { reason: TIMEOUT, kind: 'failed', messages: 1, conversationIds: [t.conv.c3] },
    ])
  })

  it("moves what happened near midnight to the organization's own day (America/New_York)", async () => {
    await updateOrganizationTimeZone(t.scope, 'America/New_York')
    const a = await getAnalytics(t.scope, query())
    expect(a.period.timeZone).toBe('America/New_York')
    // c6 (the 9th there) leaves the period, c5 (the 11th at 23:00) enters it; c2 moves to the 10th.
    expect(a.totals).toMatchObject({
      received: 9,
      answeredByAi: 4,
      answeredByPerson: 1,
      notAnswered: 3,
      conversationsStarted: 5,
      firstResponseMedianSeconds: about(30),
      firstResponseP90Seconds: about(102),
      promptTokens: 3600,
      completionTokens: 660,
      cost: 0.000831,
      unpricedTokens: 550,
    })
    expect(a.series).toMatchObject([
      {
        bucket: '2025-03-10',
        received: 5,
        answeredByAi: 3,
        answeredByPerson: 1,
        paused: 1,
        conversationsStarted: 2,
      },
      {
        bucket: '2025-03-11',
        received: 4,
        answeredByAi: 1,
        failed: 1,
        noAgent: 1,
        waiting: 1,
        conversationsStarted: 3,
      },
    ])
    expect(a.channels.find((c) => c.id === t.chA)?.trend).toEqual([5, 1])
    expect(a.channels.find((c) => c.id === t.chB)?.trend).toEqual([0, 3])
  })

  it('buckets by local hour', async () => {
    await updateOrganizationTimeZone(t.scope, 'America/New_York')
    const a = await getAnalytics(
      t.scope,
      query({ from: '2025-03-10', to: '2025-03-10', granularity: 'hour' }),
    )
    expect(a.series).toHaveLength(24)
    const received = Object.fromEntries(
      a.series.filter((p) => p.received > 0).map((p) => [p.bucket, p.received]),
    )
    expect(received).toEqual({ '2025-03-10T06:00': 3, '2025-03-10T22:00': 2 })
  })

  it("filters by channel and by agent (the agent's channels and its own runs)", async () => {
    await updateOrganizationTimeZone(t.scope, 'UTC')
    const byChannel = await getAnalytics(t.scope, query({ channelId: t.chB }))
    expect(byChannel.totals).toMatchObject({
      received: 4,
      answeredByAi: 1,
      totalTokens: 1650,
      needingAttention: 1,
      // c6 only, on B: the AI's.
      conversationsResolved: 1,
      aiResolutionRate: 1,
    })
    expect(byChannel.channels.map((c) => c.id)).toEqual([t.chB])
    expect(byChannel.agents.map((r) => r.id)).toEqual([t.agentY])

    const byAgent = await getAnalytics(t.scope, query({ agentId: t.agentX }))
    expect(byAgent.totals).toMatchObject({
      received: 5,
      answeredByAi: 3,
      conversationsStarted: 2,
      totalTokens: 3600,
      handoffs: 1,
      needingAttention: 0,
    })
    expect(byAgent.channels.map((c) => c.id)).toEqual([t.chA])
    expect(byAgent.agents.map((r) => r.id)).toEqual([t.agentX])
  })

  it("refuses another organization's channel or agent as not found, and counts none of its rows", async () => {
    await expect(getAnalytics(t.scope, query({ channelId: other.chA }))).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: ANALYTICS_TEXTS.channelNotFound,
    })
    await expect(getAnalytics(t.scope, query({ agentId: other.agentX }))).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: ANALYTICS_TEXTS.agentNotFound,
    })
    const empty = await getAnalytics(t.scope, query({ from: '2025-03-20', to: '2025-03-21' }))
    expect(empty.totals).toMatchObject({
      ...zeroOutcomes,
      aiAnswerRate: null,
      conversationsResolved: 0,
      aiResolutionRate: null,
      firstResponseMedianSeconds: null,
    })
    expect(empty.series.map((p) => p.received)).toEqual([0, 0])
  })

  it('keeps the time zone as Intl names it and refuses an unknown one', async () => {
    expect(await updateOrganizationTimeZone(t.scope, 'europe/berlin')).toMatchObject({
      timeZone: 'Europe/Berlin',
    })
    await expect(updateOrganizationTimeZone(t.scope, 'Mars/Olympus')).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    })
    await expect(updateOrganizationTimeZone(t.scope, '+05:00')).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    })
    const [row] = await getDb()
      .select({ timeZone: organizations.timeZone })
      .from(organizations)
      .where(eq(organizations.id, t.scope.organizationId))
    expect(row.timeZone).toBe('Europe/Berlin')
  })
})

describe('the rollup', () => {
  it('gives the same figures from its buckets as from the messages, in every time zone, and follows a later change within its hours', async () => {
    const db = getDb()
    const views = () =>
      Promise.all([
        getAnalytics(t.scope, query()),
        getAnalytics(t.scope, query({ channelId: t.chB })),
        getAnalytics(t.scope, query({ agentId: t.agentX })),
        getAnalytics(t.scope, query({ from: '2025-03-11', to: '2025-03-11', granularity: 'hour' })),
      ])
    for (const zone of ['UTC', 'America/New_York', 'Asia/Kolkata']) {
      // A new time zone: the rollup's hours are another zone's, so everything is read from the messages.
      await updateOrganizationTimeZone(t.scope, zone)
      const live = await views()
      // Rolled up to 2025-03-11 13:00Z (local hours): c4 and c5 (and some of c3's day) still come from the messages.
      await rollUpAnalytics(db, { now: new Date('2025-03-11T13:07:00Z') })
      expect(await views(), zone).toEqual(live)
      // Everything rolled up (this run rewrites the last 48 hours before the previous end, and on).
      await rollUpAnalytics(db, { now: new Date('2025-03-13T00:00:00Z') })
      expect(await views(), zone).toEqual(live)
    }

    // The queued message is answered later: the next run rewrites its hour.
    await db
      .update(messages)
      .set({ status: 'replied' })
      .where(and(eq(messages.conversationId, t.conv.c4), eq(messages.status, 'queued')))
    await updateOrganizationTimeZone(t.scope, 'UTC')
    await rollUpAnalytics(db, { now: new Date('2025-03-13T00:00:00Z') })
    await db
      .update(messages)
      .set({ status: 'queued' })
      .where(and(eq(messages.conversationId, t.conv.c4), eq(messages.status, 'replied')))
    expect((await getAnalytics(t.scope, query())).totals).toMatchObject({ answeredByAi: 5, waiting: 0 })
    await rollUpAnalytics(db, { now: new Date('2025-03-13T00:20:00Z') })
    expect((await getAnalytics(t.scope, query())).totals).toMatchObject({ answeredByAi: 4, waiting: 1 })
  })
})

describe("the knowledge's no-answer outcome", () => {
  it('counts a message the agent left to a person for want of knowledge as not answered and a handoff, alike from the messages and the buckets', async () => {
    const db = getDb()
    const scope = await newOwnerScope(db, 'Kim', "Kim's shop")
    const org = scope.organizationId
    const [agent] = await db
      .insert(agents)
      .values({
        organizationId: org,
        readableId: `kb-${randomUUID().slice(0, 6)}`,
        name: 'K',
        systemPrompt: 'Help.',
      })
      .returning({ id: agents.id })
    const [channel] = await db
      .insert(channels)
      .values({
        organizationId: org,
        platformName: 'telegram',
        channelType: 'telegram_bot',
        platformChannelId: randomUUID(),
        agentId: agent.id,
      })
      .returning({ id: channels.id })
    const say = async (
      conversationId: string,
      at: string,
      values: Pick<typeof messages.$inferInsert, 'status'> & Partial<typeof messages.$inferInsert>,
    ) => {
      const [row] = await db
        .insert(messages)
        .values({
          organizationId: org,
          channelId: channel.id,
          conversationId,
          direction: 'inbound',
          text: 'hi',
          createdAt: new Date(at),
          ...values,
        })
        .returning({ id: messages.id })
      return row.id
    }
    const conversation = async (at: string) => {
      const [row] = await db
        .insert(conversations)
        .values({
          organizationId: org,
          channelId: channel.id,
          platformChatId: randomUUID(),
          createdAt: new Date(at),
        })
        .returning({ id: conversations.id })
      return row.id
    }
    // Two questions the knowledge had no answer for, each with the agent's no-answer notice (a key, no run): the
    // second is answered by a person later. And one message with no agent.
    for (const [at, personAnswers] of [
      ['2025-03-10T09:00:00Z', false],
      ['2025-03-10T10:00:00Z', true],
    ] as const) {
      const c = await conversation(at)
      const asked = await say(c, at, { status: 'received', failureReason: REPLY_FAILURES.noKnowledge })
      await say(c, at.replace(':00Z', ':05Z'), {
        direction: 'outbound',
        status: 'sent',
        text: "I don't have that information",
        replyToMessageId: asked,
        clientKey: `no-knowledge:${asked}`,
      })
      if (personAnswers) {
        await say(c, at.replace(':00:00Z', ':30:00Z'), {
          direction: 'outbound',
          status: 'sent',
          text: 'We open at nine',
          authorUserId: scope.userId,
          clientKey: randomUUID(),
        })
      }
    }
    await say(await conversation('2025-03-10T11:00:00Z'), '2025-03-10T11:00:00Z', {
      status: 'received',
      failureReason: NO_AGENT,
    })

    const live = await getAnalytics(scope, query())
    expect(live.totals).toMatchObject({
      ...zeroOutcomes,
      received: 3,
      noKnowledge: 2,
      noAgent: 1,
      notAnswered: 3,
      handoffs: 2,
    })
    expect(live.series[0]).toMatchObject({ noKnowledge: 2, noAgent: 1, handoffs: 2 })
    expect(live.agents[0]).toMatchObject({ noKnowledge: 2, handoffs: 2 })
    expect(live.channels[0]).toMatchObject({ noKnowledge: 2, handoffs: 2 })
    expect(live.failureReasons.map((r) => [r.reason, r.kind, r.messages])).toContainEqual([
      REPLY_FAILURES.noKnowledge,
      'not_answered',
      2,
    ])
    const hourly = query({ from: '2025-03-10', to: '2025-03-10', granularity: 'hour' })
    const liveHourly = await getAnalytics(scope, hourly)
    await rollUpAnalytics(db, { now: new Date('2025-03-12T00:00:00Z') })
    expect(await getAnalytics(scope, query())).toEqual(live)
    expect(await getAnalytics(scope, hourly)).toEqual(liveHourly)
  })
})

describe('the failure reasons', () => {
  it('link the latest conversations of each reason, newest first and each once, in the period and the filter', async () => {
    const db = getDb()
    const u = await seedTenant(db, 'Reasons')
    const org = u.scope.organizationId
    const ids: string[] = []
    // Seven more conversations left with no agent on A, one an hour on the 11th from 01:00Z; the third gets two
    // more messages at 09:xx (so it is the newest); one on B at 23:00Z; one on A the day after the period.
    for (let i = 0; i < 7; i++) {
      const at = new Date(Date.UTC(2025, 2, 11, 1 + i))
      const [c] = await db
        .insert(conversations)
        .values({
          organizationId: org,
          channelId: u.chA,
          platformChatId: `r${i}-${randomUUID()}`,
          createdAt: at,
        })
        .returning({ id: conversations.id })
      ids.push(c.id)
      const times = i === 2 ? [at, new Date('2025-03-11T09:10:00Z'), new Date('2025-03-11T09:20:00Z')] : [at]
      for (const createdAt of times) {
        await db.insert(messages).values({
          organizationId: org,
          channelId: u.chA,
          conversationId: c.id,
          direction: 'inbound',
          text: 'hi',
          status: 'received',
          failureReason: NO_AGENT,
          createdAt,
        })
      }
    }
    const late = async (channelId: string, at: string) => {
      const [c] = await db
        .insert(conversations)
        .values({
          organizationId: org,
          channelId,
          platformChatId: `late-${randomUUID()}`,
          createdAt: new Date(at),
        })
        .returning({ id: conversations.id })
      await db.insert(messages).values({
        organizationId: org,
        channelId,
        conversationId: c.id,
        direction: 'inbound',
        text: 'hi',
        status: 'received',
        failureReason: NO_AGENT,
        createdAt: new Date(at),
      })
      return c.id
    }
    const onB = await late(u.chB, '2025-03-11T23:00:00Z')
    await late(u.chA, '2025-03-12T08:00:00Z')

    const links = async (q: Partial<AnalyticsQuery> = {}) =>
      (await getAnalytics(u.scope, query(q))).failureReasons.find((r) => r.reason === NO_AGENT)
    const expected = {
      reason: NO_AGENT,
      kind: 'not_answered',
      // c4's, 9 of the new ones on A (with the third's two more), B's late one.
      messages: 11,
      conversationIds: [onB, u.conv.c4, ids[2], ids[6], ids[5]],
    }
    expect(await links()).toEqual(expected)
    expect(await links({ channelId: u.chA })).toEqual({
      ...expected,
      messages: 9,
      conversationIds: [ids[2], ids[6], ids[5], ids[4], ids[3]],
    })
    await rollUpAnalytics(db, { now: new Date('2025-03-11T12:00:00Z') })
    expect(await links()).toEqual(expected)
    await rollUpAnalytics(db, { now: new Date('2025-03-14T00:00:00Z') })
    expect(await links()).toEqual(expected)
  })
})

describe('analyticsQuerySchema', () => {
  it('takes a period of 1 to 366 days, hours for at most 7', () => {
    expect(analyticsQuerySchema.safeParse({ from: '2025-01-01', to: '2025-12-31' }).success).toBe(true)
    expect(analyticsQuerySchema.safeParse({ from: '2024-01-01', to: '2024-12-31' }).success).toBe(true)
    const tooLong = analyticsQuerySchema.safeParse({ from: '2024-01-01', to: '2025-01-01' })
    expect(tooLong.error?.issues[0].message).toBe(ANALYTICS_TEXTS.rangeTooLong)
    const inverted = analyticsQuerySchema.safeParse({ from: '2025-01-02', to: '2025-01-01' })
    expect(inverted.error?.issues[0].message).toBe(ANALYTICS_TEXTS.rangeInverted)
    expect(analyticsQuerySchema.safeParse({ from: '2025-02-30', to: '2025-03-01' }).success).toBe(false)
    const hourly = analyticsQuerySchema.safeParse({
      from: '2025-01-01',
      to: '2025-01-08',
      granularity: 'hour',
    })
    expect(hourly.error?.issues[0].message).toBe(ANALYTICS_TEXTS.hourlyTooLong)
  })
})
