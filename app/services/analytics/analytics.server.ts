import { eq } from 'drizzle-orm'
import { agents, channels, organizations } from '~/db/schema'
import {
  ANALYTICS_TEXTS,
  bucketsOf,
  CONVERSATIONS_PER_REASON,
  costOf,
  DEFAULT_MODEL_PRICES,
  TOP_FAILURE_REASONS,
  type Analytics,
  type AnalyticsQuery,
  type ModelPrices,
} from '~/lib/analytics/analytics'
import { channelDisplayName } from '~/lib/channels/channels'
import { isUuid } from '~/lib/shared/input'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'
import {
  needingAttention,
  resolutions,
  outcomeRows,
  readRollup,
  reasonRows,
  runRows,
  startedRows,
  type OutcomeRow,
  type PeriodFilter,
  type RunRow,
  type StartedRow,
} from './analytics-queries.server'

/*
 * The dashboard's figures (issue #19; docs/decisions/044). A period is a range of dates in the organization's time
 * zone, both ends included: from the first date's local midnight to the midnight after the last. Buckets are local
 * dates or local hours. Every figure counts rows created in the period:
 *
 * - received: customer (inbound) messages, whatever they were (text or not).
 * - each is counted under one outcome, the first that holds:
 *   - answered by the AI: its status is `replied`. The reply pipeline marks every message of a burst replied when
 *     the one answer to the burst is sent, so each message of a burst counts as answered.
 *   - answered by a person: a person's reply (from the inbox, or natively on the platform: an echo) was sent
 *     later in the conversation.
 *   - waiting: still queued for the AI.
 *   - failed: the reply failed after its retries (the model, the platform...).
 *   - paused: stored and left to a person because the AI was paused in the conversation, and no person answered.
 *   - no answer in knowledge: the agent's knowledge had no answer; it sent its no-answer notice and left the
 *     message to a person (whether a person has answered since or not: what the agent did, as with a handoff).
 *   - no agent: stored and left to a person for any other reason (no agent or agent off on the channel, out of
 *     office hours, not text, channel in error), and no person answered.
 *   not answered = failed + paused + no answer in knowledge + no agent; AI answer rate = answered by the AI /
 *   received.
 * - first-response time: per conversation started in the period, from its customer's first message to the first
 *   answer after it (the AI's or a person's, sent; the agent's fixed notices are not answers). Per conversation
 *   rather than per message: it is what a customer waits when they write in, it is not stretched by a burst wait
 *   on every message, and it costs one index probe per conversation instead of one per message. Median and 90th
 *   percentile over the conversations answered; null when none was.
 * - conversations started: conversations created in the period (by their first message either way).
 * - handoffs: runs of the period in which the model handed the conversation to a person, and customer messages
 *   with no answer in knowledge (above): the agent handed those to a person too.
 * - needing attention: conversations that need a person now (not bound to the period).
 * - tokens: prompt and completion tokens of the period's runs that answered customers (the Agents screen's tests
 *   are left out); cost: tokens × the model's price (lib/analytics/analytics: DEFAULT_MODEL_PRICES and LLM_PRICES), an
 *   estimate; a model without a price counts its tokens in `unpricedTokens`, not in the cost.
 * - per agent: message and conversation figures of the channels assigned to the agent now (the history of
 *   assignments is not kept), tokens and handoffs of the agent's own runs. The agent filter means the same.
 * - per channel: everything on the channel (tokens: runs that answered on it).
 * - failure reasons: customer messages of the period that failed or were left to a person (not for a pause), by
 *   reason, most frequent first, with their latest conversations.
 *
 * The figures before the organization's `rolled_until` come from the rollup's local-hour buckets (rollup.server.ts),
 * those after it from the source tables; both are counted by the same SQL (analytics-queries.server.ts).
 */

export type AnalyticsOptions = AnalyticsQuery & {
  /** The price table for the cost estimate (configuration); the defaults when left out. */
  prices?: ModelPrices
}

type Tally = {
  received: number
  answeredByAi: number
  answeredByPerson: number
  failed: number
  paused: number
  noAgent: number
  noKnowledge: number
  notAnswered: number
  waiting: number
  conversationsStarted: number
  handoffs: number
  promptTokens: number
  completionTokens: number
  totalTokens: number
  cost: number
  unpricedTokens: number
}

const emptyTally = (): Tally => ({
  received: 0,
  answeredByAi: 0,
  answeredByPerson: 0,
  failed: 0,
  paused: 0,
  noAgent: 0,
  noKnowledge: 0,
  notAnswered: 0,
  waiting: 0,
  conversationsStarted: 0,
  handoffs: 0,
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  cost: 0,
  unpricedTokens: 0,
})

const OUTCOME_FIELDS = [
  'received',
  'answeredByAi',
  'answeredByPerson',
  'failed',
  'paused',
  'noAgent',
  'noKnowledge',
  'waiting',
] as const

function addOutcomes(tally: Tally, row: OutcomeRow) {
  for (const field of OUTCOME_FIELDS) tally[field] += row[field]
  tally.notAnswered += row.failed + row.paused + row.noAgent + row.noKnowledge
  // The agent's knowledge had no answer: it told the customer so and handed the conversation to a person.
  tally.handoffs += row.noKnowledge
}

function addRun(tally: Tally, run: RunRow, cost: number | null) {
  const total = run.promptTokens + run.completionTokens
  tally.promptTokens += run.promptTokens
  tally.completionTokens += run.completionTokens
  tally.totalTokens += total
  tally.handoffs += run.handoffs
  if (cost === null) tally.unpricedTokens += total
  else tally.cost += cost
}

/** Keyed tallies, made on first use. */
function tallies<K>() {
  const map = new Map<K, Tally>()
  return {
    map,
    of(key: K) {
      let tally = map.get(key)
      if (!tally) map.set(key, (tally = emptyTally()))
      return tally
    },
  }
}

const rate = (tally: Tally) => (tally.received > 0 ? tally.answeredByAi / tally.received : null)
const response = (row: StartedRow | undefined) => ({
  firstResponseMedianSeconds: row?.median ?? null,
  firstResponseP90Seconds: row?.p90 ?? null,
})
/** Money to a tenth of a cent's hundredth: sums of many small floats, rounded once for the reader. */
const usd = (value: number) => Math.round(value * 1e6) / 1e6

function finish(tally: Tally) {
  return { ...tally, cost: usd(tally.cost) }
}

/**
 * The dashboard's figures for a period, in the organization's time zone, optionally for one channel or one
 * agent (either must be the organization's: another's is not found, never counted). Six statements after the
 * lookup of the organization's zone, channels and agents, run concurrently.
 */
export async function getAnalytics(scope: OrganizationScope, options: AnalyticsOptions): Promise<Analytics> {
  const { from, to, granularity, channelId, agentId } = options
  const prices = options.prices ?? DEFAULT_MODEL_PRICES
  const { timeZone, agentRows, shownChannels, agentOfChannel, filter } = await periodOf(scope, options)
  const [outcomes, runs, started, reasons, attention, resolved] = await Promise.all([
    outcomeRows(scope.db, filter),
    runRows(scope.db, filter),
    startedRows(scope.db, filter),
    reasonRows(scope.db, filter, TOP_FAILURE_REASONS, CONVERSATIONS_PER_REASON),
    needingAttention(scope.db, filter),
    resolutions(scope.db, filter),
  ])
  const buckets = bucketsOf(from, to, granularity)
  const t = tallyAll({ outcomes, runs, started }, agentOfChannel, prices)

  const trendOf = (key: string) => buckets.map((bucket) => t.trends.get(key)?.get(bucket) ?? 0)
  const rowOf = (tally: Tally, startedRow: StartedRow | undefined, trendKey: string) => ({
    ...finish(tally),
    aiAnswerRate: rate(tally),
    ...response(startedRow),
    trend: trendOf(trendKey),
  })
  const shownAgents = agentRows.filter(
    (a) =>
      (!agentId || a.id === agentId) &&
      (!channelId || agentOfChannel.get(channelId) === a.id || t.byAgent.map.has(a.id)),
  )
  return {
    period: { from, to, timeZone, granularity, channelId: channelId ?? null, agentId: agentId ?? null },
    totals: {
      ...finish(t.total),
      aiAnswerRate: rate(t.total),
      ...response(t.startedBy.total),
      conversationsAnswered: t.startedBy.total?.answered ?? 0,
      needingAttention: attention,
      conversationsResolved: resolved.resolved,
      resolvedByAi: resolved.byAi,
      aiResolutionRate: resolved.resolved > 0 ? resolved.byAi / resolved.resolved : null,
      models: modelCosts(t.models, prices),
    },
    series: buckets.map((bucket) => ({
      bucket,
      ...finish(t.byBucket.map.get(bucket) ?? emptyTally()),
      ...response(t.startedBy.bucket.get(bucket)),
    })),
    agents: shownAgents.map((agent) => ({
      id: agent.id,
      name: agent.name,
      ...rowOf(t.byAgent.of(agent.id), t.startedBy.agent.get(agent.id), `agent:${agent.id}`),
    })),
    channels: shownChannels.map((channel) => ({
      id: channel.id,
      name: channelDisplayName(channel),
      platformName: channel.platformName,
      ...rowOf(t.byChannel.of(channel.id), t.startedBy.channel.get(channel.id), `channel:${channel.id}`),
    })),
    failureReasons: reasons.map((row) => ({
      reason: row.reason,
      kind: row.status === 'failed' ? ('failed' as const) : ('not_answered' as const),
      messages: row.messages,
      conversationIds: row.conversationIds,
    })),
  }
}

/**
 * The period's filter: the organization's time zone, its channels and agents (a channel or an agent of another
 * organization is not found), the channels shown, and how far the rollup may stand in for the source tables.
 */
async function periodOf({ db, organizationId }: OrganizationScope, options: AnalyticsOptions) {
  const { from, to, granularity, channelId, agentId } = options
  if (channelId !== undefined && !isUuid(channelId)) {
    throw new AppError('NOT_FOUND', ANALYTICS_TEXTS.channelNotFound)
  }
  if (agentId !== undefined && !isUuid(agentId))
    throw new AppError('NOT_FOUND', ANALYTICS_TEXTS.agentNotFound)

  const [[organization], channelRows, agentRows, rollup] = await Promise.all([
    db
      .select({ timeZone: organizations.timeZone })
      .from(organizations)
      .where(eq(organizations.id, organizationId)),
    db
      .select({
        id: channels.id,
        platformName: channels.platformName,
        channelType: channels.channelType,
        metadata: channels.metadata,
        agentId: channels.agentId,
      })
      .from(channels)
      .where(eq(channels.organizationId, organizationId))
      .orderBy(channels.createdAt, channels.id),
    db
      .select({ id: agents.id, name: agents.name })
      .from(agents)
      .where(eq(agents.organizationId, organizationId))
      .orderBy(agents.createdAt, agents.id),
    readRollup(db, organizationId),
  ])
  if (channelId && !channelRows.some((c) => c.id === channelId)) {
    throw new AppError('NOT_FOUND', ANALYTICS_TEXTS.channelNotFound)
  }
  if (agentId && !agentRows.some((a) => a.id === agentId)) {
    throw new AppError('NOT_FOUND', ANALYTICS_TEXTS.agentNotFound)
  }
  const timeZone = organization?.timeZone ?? 'UTC'
  const agentOfChannel = new Map(channelRows.map((c) => [c.id, c.agentId]))
  const shownChannels = channelRows.filter(
    (c) => (!channelId || c.id === channelId) && (!agentId || c.agentId === agentId),
  )
  const filter: PeriodFilter = {
    organizationId,
    from,
    to,
    timeZone,
    granularity,
    channelIds: channelId || agentId ? shownChannels.map((c) => c.id) : undefined,
    agentId,
    runChannelId: channelId,
    // Buckets of another time zone's hours are not this one's: the source tables until the job rolls up again.
    rolledUntil: rollup?.timeZone === timeZone ? rollup.until : null,
  }
  return { timeZone, agentRows, shownChannels, agentOfChannel, filter }
}

type ModelTokens = Map<string | null, { promptTokens: number; completionTokens: number }>

/** The period's rows added up: in all, by bucket, by channel and by agent, with each one's trend. */
function tallyAll(
  rows: {
    outcomes: Awaited<ReturnType<typeof outcomeRows>>
    runs: Awaited<ReturnType<typeof runRows>>
    started: StartedRow[]
  },
  agentOfChannel: Map<string, string | null>,
  prices: ModelPrices,
) {
  const total = emptyTally()
  const byBucket = tallies<string>()
  const byChannel = tallies<string>()
  const byAgent = tallies<string>()
  const trends = new Map<string, Map<string, number>>()
  const addTrend = (key: string, bucket: string, messages: number) => {
    let trend = trends.get(key)
    if (!trend) trends.set(key, (trend = new Map()))
    trend.set(bucket, (trend.get(bucket) ?? 0) + messages)
  }
  for (const row of rows.outcomes) {
    addOutcomes(total, row)
    addOutcomes(byBucket.of(row.bucket), row)
    addOutcomes(byChannel.of(row.channelId), row)
    addTrend(`channel:${row.channelId}`, row.bucket, row.received)
    const agent = agentOfChannel.get(row.channelId)
    if (agent) {
      addOutcomes(byAgent.of(agent), row)
      addTrend(`agent:${agent}`, row.bucket, row.received)
    }
  }

  const models: ModelTokens = new Map()
  for (const run of rows.runs) {
    const cost = costOf(run.model, { prompt: run.promptTokens, completion: run.completionTokens }, prices)
    addRun(total, run, cost)
    addRun(byBucket.of(run.bucket), run, cost)
    addRun(byAgent.of(run.agentId), run, cost)
    if (run.channelId) addRun(byChannel.of(run.channelId), run, cost)
    const model = models.get(run.model) ?? { promptTokens: 0, completionTokens: 0 }
    model.promptTokens += run.promptTokens
    model.completionTokens += run.completionTokens
    models.set(run.model, model)
  }

  const startedBy = {
    total: undefined as StartedRow | undefined,
    bucket: new Map<string, StartedRow>(),
    channel: new Map<string, StartedRow>(),
    agent: new Map<string, StartedRow>(),
  }
  const of = { bucket: byBucket, channel: byChannel, agent: byAgent }
  for (const row of rows.started) {
    const key = row.by === 'bucket' ? row.bucket : row.by === 'channel' ? row.channelId : row.agentId
    if (row.by === 'total') {
      startedBy.total = row
      total.conversationsStarted = row.started
    } else if (key) {
      startedBy[row.by].set(key, row)
      of[row.by].of(key).conversationsStarted = row.started
    }
  }
  return { total, byBucket, byChannel, byAgent, trends, models, startedBy }
}

/** Tokens and cost by model, the most used first. */
function modelCosts(models: ModelTokens, prices: ModelPrices) {
  return [...models]
    .map(([model, tokens]) => {
      const cost = costOf(model, { prompt: tokens.promptTokens, completion: tokens.completionTokens }, prices)
      return { model, ...tokens, cost: cost === null ? null : usd(cost) }
    })
    .sort((a, b) => b.promptTokens + b.completionTokens - (a.promptTokens + a.completionTokens))
}
