import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { rowsOf } from '~/db/rows.server'
import { REPLY_FAILURES } from '~/lib/reply-pipeline'
import type { AnalyticsGranularity } from '~/lib/analytics'

// The dashboard's statements (docs/decisions/044). Each reads one organization's rows of one period from an index
// that holds every column it names (an index-only scan on a vacuumed table), and groups them into few rows; the
// service adds them up into totals, series and per-agent and per-channel rows.

/** The period and filters every statement takes: dates in `timeZone`, both ends included. */
export type PeriodFilter = {
  organizationId: string
  from: string
  to: string
  timeZone: string
  granularity: AnalyticsGranularity
  /** Messages and conversations of these channels only (a channel filter, or an agent's channels); none: all. */
  channelIds?: string[]
  /** Runs of this agent only. */
  agentId?: string
  /** Runs on this channel only. */
  runChannelId?: string
}

/** The bucket of a time column, as the service names buckets: a local date, or a local hour. */
function bucketOf(column: SQL, { timeZone, granularity }: PeriodFilter) {
  return granularity === 'hour'
    ? sql`to_char(date_trunc('hour', ${column} at time zone ${timeZone}), 'YYYY-MM-DD"T"HH24:00')`
    : sql`to_char((${column} at time zone ${timeZone})::date, 'YYYY-MM-DD')`
}

/** `column` within the period: from the first date's local midnight to the midnight after the last date. */
function inPeriod(column: SQL, { from, to, timeZone }: PeriodFilter) {
  return sql`${column} >= (${from}::date::timestamp at time zone ${timeZone})
    and ${column} < ((${to}::date + 1)::timestamp at time zone ${timeZone})`
}

function inChannels(column: SQL, { channelIds }: PeriodFilter) {
  if (!channelIds) return sql`true`
  return sql`${column} in (select value::uuid from json_array_elements_text(${JSON.stringify(channelIds)}::json))`
}

/**
 * A reply that counts as an answer: sent (or delivered, read) and written by the agent (it has a run) or by a
 * person (from the inbox: its author; or natively on the platform: an echo, with neither a run, an answered
 * message nor a key). The agent's fixed notices (fallback, "text only", out of hours) carry a key and no run:
 * they tell the customer that nobody answers, so they are not answers.
 */
const ANSWER = (o: string) =>
  sql.raw(`${o}.direction = 'outbound' and ${o}.status in ('sent', 'delivered', 'read')
    and (${o}.agent_run_id is not null or ${o}.author_user_id is not null
      or (${o}.reply_to_message_id is null and ${o}.client_key is null))`)
const PERSON_ANSWER = (o: string) =>
  sql.raw(`${o}.direction = 'outbound' and ${o}.status in ('sent', 'delivered', 'read') and ${o}.agent_run_id is null
    and (${o}.author_user_id is not null or (${o}.reply_to_message_id is null and ${o}.client_key is null))`)

export type Outcome = 'ai' | 'person' | 'failed' | 'paused' | 'no_agent' | 'waiting'
export type OutcomeRow = { bucket: string; channelId: string; outcome: Outcome; messages: number }

/**
 * The customer messages of the period by bucket, channel and outcome. One outcome per message, first match:
 * replied → ai; a person's answer later in the conversation → person; queued → waiting; failed → failed;
 * left to a person because the AI was paused → paused; anything else (no agent, agent off, out of hours, not
 * text, channel in error) → no_agent. Only a message the AI did not answer is looked up further (its
 * conversation's later messages, from the (conversation, sequence) index).
 */
export async function outcomeRows(db: Database, filter: PeriodFilter): Promise<OutcomeRow[]> {
  const result = await db.execute(sql`
    select bucket, channel_id as "channelId", outcome, count(*)::int as messages
    from (
      select ${bucketOf(sql`m.created_at`, filter)} as bucket, m.channel_id,
        case
          when m.status = 'replied' then 'ai'
          when exists (select 1 from messages o where o.conversation_id = m.conversation_id
            and o.sequence > m.sequence and ${PERSON_ANSWER('o')}) then 'person'
          when m.status = 'queued' then 'waiting'
          when m.status = 'failed' then 'failed'
          when m.status = 'received' and m.failure_reason = ${REPLY_FAILURES.aiPaused} then 'paused'
          else 'no_agent'
        end as outcome
      from messages m
      where m.organization_id = ${filter.organizationId} and m.direction = 'inbound'
        and ${inPeriod(sql`m.created_at`, filter)} and ${inChannels(sql`m.channel_id`, filter)}
    ) t
    group by 1, 2, 3`)
  return rowsOf<OutcomeRow>(result)
}

export type RunRow = {
  bucket: string
  agentId: string
  channelId: string | null
  model: string | null
  promptTokens: number
  completionTokens: number
  handoffs: number
}

/** The period's runs that answered customers (tests on the Agents screen left out), by bucket, agent, channel, model. */
export async function runRows(db: Database, filter: PeriodFilter): Promise<RunRow[]> {
  const result = await db.execute(sql`
    select ${bucketOf(sql`r.created_at`, filter)} as bucket, r.agent_id as "agentId", r.channel_id as "channelId",
      r.model_used as model, sum(r.prompt_tokens)::float8 as "promptTokens",
      sum(r.completion_tokens)::float8 as "completionTokens",
      count(*) filter (where r.handoff_reason is not null)::int as handoffs
    from agent_runs r
    where r.organization_id = ${filter.organizationId} and r.test_mode = false
      and ${inPeriod(sql`r.created_at`, filter)}
      ${filter.agentId ? sql`and r.agent_id = ${filter.agentId}` : sql``}
      ${filter.runChannelId ? sql`and r.channel_id = ${filter.runChannelId}` : sql``}
    group by 1, 2, 3, 4`)
  return rowsOf<RunRow>(result)
}

export type StartedRow = {
  /** Which grouping: 'total', 'bucket', 'channel', 'agent'. */
  by: 'total' | 'bucket' | 'channel' | 'agent'
  bucket: string | null
  channelId: string | null
  agentId: string | null
  started: number
  answered: number
  median: number | null
  p90: number | null
}

/**
 * Conversations started in the period (by their creation: the first message either way) and their first-response
 * time: from the customer's first message to the first answer after it (see ANSWER), in seconds; a conversation
 * not answered yet has none. Median and 90th percentile overall, per bucket, per channel, and per the agent
 * assigned to the channel now.
 */
export async function startedRows(db: Database, filter: PeriodFilter): Promise<StartedRow[]> {
  const result = await db.execute(sql`
    with started as (
      select ${bucketOf(sql`c.created_at`, filter)} as bucket, c.channel_id, ch.agent_id,
        extract(epoch from (answer.at - first_in.created_at))::float8 as seconds
      from conversations c
      join channels ch on ch.id = c.channel_id
      left join lateral (
        select i.sequence, i.created_at from messages i
        where i.conversation_id = c.id and i.direction = 'inbound'
        order by i.sequence limit 1
      ) first_in on true
      left join lateral (
        select coalesce(o.platform_sent_at, o.created_at) as at from messages o
        where o.conversation_id = c.id and o.sequence > first_in.sequence and ${ANSWER('o')}
        order by o.sequence limit 1
      ) answer on true
      where c.organization_id = ${filter.organizationId}
        and ${inPeriod(sql`c.created_at`, filter)} and ${inChannels(sql`c.channel_id`, filter)}
    )
    select
      case grouping(bucket, channel_id, agent_id)
        when 7 then 'total' when 3 then 'bucket' when 5 then 'channel' else 'agent' end as by,
      bucket, channel_id as "channelId", agent_id as "agentId",
      count(*)::int as started, count(seconds)::int as answered,
      percentile_cont(0.5) within group (order by seconds) as median,
      percentile_cont(0.9) within group (order by seconds) as p90
    from started
    group by grouping sets ((), (bucket), (channel_id), (agent_id))`)
  return rowsOf<StartedRow>(result)
}

export type ReasonRow = {
  status: 'failed' | 'received'
  reason: string
  messages: number
  conversations: number
  conversationIds: string[]
}

/**
 * Why customer messages of the period were not answered by the AI, most frequent first: the failures' reasons and
 * those of messages left to a person (no agent, out of hours...), but not "the AI is paused", which is a person's
 * choice. Each with its latest conversations, for links.
 */
export async function reasonRows(db: Database, filter: PeriodFilter, limit: number, perReason: number) {
  const result = await db.execute(sql`
    select status, reason, sum(n)::int as messages, count(*)::int as conversations,
      (array_agg(conversation_id::text order by last_at desc))[1:${perReason}] as "conversationIds"
    from (
      select m.status, m.failure_reason as reason, m.conversation_id, count(*) as n, max(m.created_at) as last_at
      from messages m
      where m.organization_id = ${filter.organizationId} and m.direction = 'inbound'
        and ${inPeriod(sql`m.created_at`, filter)} and ${inChannels(sql`m.channel_id`, filter)}
        and m.status in ('failed', 'received') and m.failure_reason is not null
        and m.failure_reason <> ${REPLY_FAILURES.aiPaused}
      group by 1, 2, 3
    ) t
    group by 1, 2
    order by messages desc, reason
    limit ${limit}`)
  return rowsOf<ReasonRow>(result)
}

/** Conversations that need a person now, whatever the period (the inbox's count index). */
export async function needingAttention(db: Database, filter: PeriodFilter): Promise<number> {
  const result = await db.execute(sql`
    select count(*)::int as n from conversations c
    where c.organization_id = ${filter.organizationId} and c.state = 'needs_attention'
      and ${inChannels(sql`c.channel_id`, filter)}`)
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0
}
