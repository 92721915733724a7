import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { rowsOf } from '~/db/rows.server'
import { REPLY_FAILURES } from '~/lib/conversations/reply-pipeline'
import type { AnalyticsGranularity } from '~/lib/analytics/analytics'
import { percentileOf, responseBinOf, UNANSWERED_BIN, type ResponseHistogram } from './response-histogram'

// The dashboard's statements (docs/decisions/044). Each reads the rollup (local-hour buckets written by the
// analytics-rollup job, see rollup.server.ts) before `analytics_rollup.rolled_until`, and the source tables from
// that instant on (the last minutes, or everything before the job's first run), as one UNION ALL, and groups the
// result into few rows. The rollup is written by the same row definitions (the `*Source` fragments below), so
// both halves count alike.

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
  /**
   * How far the organization's rollup went, in seconds since 1970 (readRollup), read once for all statements:
   * given as a value, the planner estimates each half's rows (as a subquery it guessed 250 for 50,000 and sorted
   * on disk). Null: no rollup in this time zone yet (everything from the source tables).
   */
  rolledUntil: number | null
}

/** The rollup's bucket: the local hour a time falls in, in a time zone. */
export const localHourOf = (column: SQL, timeZone: SQL) =>
  sql`date_trunc('hour', ${column} at time zone ${timeZone})`

/** The bucket of a time column: its local date, or its local hour (grouped on, then named by bucketName). */
function bucketOf(column: SQL, { timeZone, granularity }: PeriodFilter) {
  return granularity === 'hour'
    ? sql`date_trunc('hour', ${column} at time zone ${timeZone})`
    : sql`(${column} at time zone ${timeZone})::date`
}

/** The bucket of a rollup row's local hour (see bucketOf). */
function bucketOfHour(column: SQL, { granularity }: PeriodFilter) {
  return granularity === 'hour' ? column : sql`${column}::date`
}

/** A bucket as the service names it: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:00` for an hour. Applied after grouping. */
function bucketName(bucket: SQL, { granularity }: PeriodFilter) {
  return granularity === 'hour'
    ? sql`to_char(${bucket}, 'YYYY-MM-DD"T"HH24:00')`
    : sql`to_char(${bucket}, 'YYYY-MM-DD')`
}

/** The period's first instant (the first date's local midnight) and its end (the midnight after the last date). */
const startOf = ({ from, timeZone }: PeriodFilter) => sql`(${from}::date::timestamp at time zone ${timeZone})`
const endOf = ({ to, timeZone }: PeriodFilter) => sql`((${to}::date + 1)::timestamp at time zone ${timeZone})`
/** How far the rollup goes; -infinity before the job's first run (then everything is read from the source). */
const rolledUntil = ({ rolledUntil }: PeriodFilter) =>
  rolledUntil === null ? sql`'-infinity'::timestamptz` : sql`to_timestamp(${rolledUntil}::float8)`

/** How far an organization's rollup went and in which time zone (see PeriodFilter.rolledUntil). */
export async function readRollup(db: Database, organizationId: string) {
  const [row] = rowsOf<{ timeZone: string; until: number }>(
    await db.execute(sql`select time_zone as "timeZone", extract(epoch from rolled_until)::float8 as until
      from analytics_rollup where organization_id = ${organizationId}`),
  )
  return row ? { timeZone: row.timeZone, until: Number(row.until) } : undefined
}

/** The rollup's part of the period, in local hours (the buckets): the period's dates, before `rolled_until`. */
function rolledHours(column: SQL, filter: PeriodFilter) {
  const until =
    filter.rolledUntil === null
      ? sql`'-infinity'::timestamp`
      : sql`(to_timestamp(${filter.rolledUntil}::float8) at time zone ${filter.timeZone})`
  return sql`${column} >= ${filter.from}::date::timestamp
    and ${column} < least((${filter.to}::date + 1)::timestamp, ${until})`
}
/** The source tables' part: from `rolled_until` (or the period's start, if later) to the period's end. */
const livePart = (column: SQL, filter: PeriodFilter) =>
  sql`${column} >= greatest(${startOf(filter)}, ${rolledUntil(filter)}) and ${column} < ${endOf(filter)}`

/**
 * Runs a read with JIT off (the planner's estimates for these aggregates are above jit_above_cost, and compiling
 * them took 2-3 s for a statement that runs in 100 ms) and room to sort a period's conversations in memory for the
 * percentiles (bench:analytics, docs/decisions/044).
 */
function read(db: Database, query: SQL, { walk = false }: { walk?: boolean } = {}) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('jit', 'off', true), set_config('work_mem', '32MB', true)`)
    if (walk) {
      // A walk along an index (reasonRows): each step wants the newest row after the last one. The planner
      // estimates one row per step (the reason and status are the outer row's, of unknown selectivity) and would
      // read every message of the reason into a bitmap and sort it, for each step (6-9 s at 1,000,000 messages).
      await tx.execute(sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_sort', 'off', true),
        set_config('enable_incremental_sort', 'off', true)`)
    }
    return tx.execute(query)
  })
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

/**
 * A customer message's outcome, first match: replied → ai; the agent's knowledge had no answer (it sent its
 * no-answer notice and left the message to a person) → no_knowledge, a handoff, whether a person has answered
 * since or not (as a model's handoff stays the AI's answer); a person's answer later in the conversation →
 * person; queued → waiting; failed → failed; left to a person because the AI was paused → paused; anything else
 * (no agent, agent off, out of hours, not text, channel in error) → no_agent. Only a message the AI did not
 * answer is looked up further (its conversation's later messages, from the (conversation, sequence) index).
 */
const OUTCOME = sql`case
  when m.status = 'replied' then 'ai'
  when m.status = 'received' and m.failure_reason = ${REPLY_FAILURES.noKnowledge} then 'no_knowledge'
  when exists (select 1 from messages o where o.conversation_id = m.conversation_id
    and o.sequence > m.sequence and ${PERSON_ANSWER('o')}) then 'person'
  when m.status = 'queued' then 'waiting'
  when m.status = 'failed' then 'failed'
  when m.status = 'received' and m.failure_reason = ${REPLY_FAILURES.aiPaused} then 'paused'
  else 'no_agent' end`

/**
 * The counts of each outcome but no_knowledge, which is what `received` leaves over: the rollup's buckets have no
 * column of their own for it (outcomeRows reads it so from both halves).
 */
const OUTCOME_SUMS = sql`count(*)::int as received,
  count(*) filter (where outcome = 'ai')::int as answered_by_ai,
  count(*) filter (where outcome = 'person')::int as answered_by_person,
  count(*) filter (where outcome = 'failed')::int as failed,
  count(*) filter (where outcome = 'paused')::int as paused,
  count(*) filter (where outcome = 'no_agent')::int as no_agent,
  count(*) filter (where outcome = 'waiting')::int as waiting`

/** Customer messages by `bucket` and channel with their outcomes' counts, from `messages m` under `where`. */
export const outcomeSource = (bucket: SQL, where: SQL) => sql`
  select ${bucket} as bucket, organization_id, channel_id, ${OUTCOME_SUMS}
  from (
    select m.created_at, m.organization_id, m.channel_id, ${OUTCOME} as outcome
    from messages m where m.direction = 'inbound' and ${where}
    -- offset 0: computed once per message, not inlined into each count below (six subplans)
    offset 0
  ) m
  group by 1, 2, 3`

/** Runs that answered customers (the Agents screen's tests left out) by `bucket`, agent, channel and model. */
export const runSource = (bucket: SQL, where: SQL) => sql`
  select ${bucket} as bucket, r.organization_id, r.agent_id, r.channel_id, r.model_used as model,
    sum(r.prompt_tokens)::bigint as prompt_tokens, sum(r.completion_tokens)::bigint as completion_tokens,
    count(*) filter (where r.handoff_reason is not null)::int as handoffs
  from agent_runs r where r.test_mode = false and ${where}
  group by 1, 2, 3, 4, 5`

/**
 * Conversations with their start and first-response time: from the customer's first message to the first answer
 * after it (see ANSWER), in seconds; null when not answered yet.
 */
export const conversationSource = (where: SQL) => sql`
  select c.id as conversation_id, c.organization_id, c.channel_id, c.created_at as started_at,
    extract(epoch from (answer.at - first_in.created_at))::float8 as first_response_seconds
  from conversations c
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
  where ${where}`

/**
 * Conversations started by `bucket` (over `c.started_at`) and channel, counted per bin of their first-response
 * time (response-histogram.ts), from `conversations c` under `where`.
 */
export const responseSource = (bucket: SQL, where: SQL) => sql`
  select ${bucket} as bucket, c.organization_id, c.channel_id, ${responseBinOf(sql`c.first_response_seconds`)} as bin,
    count(*)::int as conversations
  from (${conversationSource(where)}) c
  group by 1, 2, 3, 4`

/** A customer message counted under a failure reason (see reasonSource); the partial index's condition first. */
const REASON_MESSAGE = (m: string) =>
  sql`${sql.raw(m)}.direction = 'inbound' and ${sql.raw(m)}.failure_reason is not null
    and ${sql.raw(m)}.status in ('failed', 'received') and ${sql.raw(m)}.failure_reason <> ${REPLY_FAILURES.aiPaused}`

/**
 * Customer messages not answered by the AI with a reason (failed, or left to a person: no agent, out of hours...;
 * not "the AI is paused", a person's choice), by `bucket`, channel, status and reason.
 */
export const reasonSource = (bucket: SQL, where: SQL) => sql`
  select ${bucket} as bucket, m.organization_id, m.channel_id, m.status, m.failure_reason as reason,
    count(*)::int as messages
  from messages m
  where ${REASON_MESSAGE('m')} and ${where}
  group by 1, 2, 3, 4, 5`

export type OutcomeRow = {
  bucket: string
  channelId: string
  received: number
  answeredByAi: number
  answeredByPerson: number
  failed: number
  paused: number
  noAgent: number
  waiting: number
  noKnowledge: number
}

/** The period's customer messages by bucket and channel, with their outcomes' counts. */
export async function outcomeRows(db: Database, filter: PeriodFilter): Promise<OutcomeRow[]> {
  const org = filter.organizationId
  const result = await read(
    db,
    sql`
    select ${bucketName(sql`bucket`, filter)} as bucket, channel_id as "channelId", sum(received)::int as received,
      sum(answered_by_ai)::int as "answeredByAi", sum(answered_by_person)::int as "answeredByPerson",
      sum(failed)::int as failed, sum(paused)::int as paused, sum(no_agent)::int as "noAgent",
      sum(waiting)::int as waiting,
      (sum(received) - sum(answered_by_ai) - sum(answered_by_person) - sum(failed) - sum(paused) - sum(no_agent)
        - sum(waiting))::int as "noKnowledge"
    from (
      select ${bucketOfHour(sql`b.local_hour`, filter)} as bucket, b.channel_id, b.received, b.answered_by_ai,
        b.answered_by_person, b.failed, b.paused, b.no_agent, b.waiting
      from analytics_message_buckets b
      where b.organization_id = ${org} and ${rolledHours(sql`b.local_hour`, filter)}
        and ${inChannels(sql`b.channel_id`, filter)}
      union all
      select bucket, channel_id, received, answered_by_ai, answered_by_person, failed, paused, no_agent, waiting
      from (${outcomeSource(
        bucketOf(sql`m.created_at`, filter),
        sql`m.organization_id = ${org} and ${livePart(sql`m.created_at`, filter)}
          and ${inChannels(sql`m.channel_id`, filter)}`,
      )}) live
    ) t
    group by bucket, channel_id`,
  )
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

/** The period's runs that answered customers, by bucket, agent, channel and model. */
export async function runRows(db: Database, filter: PeriodFilter): Promise<RunRow[]> {
  const org = filter.organizationId
  const runFilter = (agent: SQL, channel: SQL) =>
    sql`${filter.agentId ? sql`and ${agent} = ${filter.agentId}` : sql``}
      ${filter.runChannelId ? sql`and ${channel} = ${filter.runChannelId}` : sql``}`
  const result = await read(
    db,
    sql`
    select ${bucketName(sql`bucket`, filter)} as bucket, agent_id as "agentId", channel_id as "channelId", model,
      sum(prompt_tokens)::float8 as "promptTokens", sum(completion_tokens)::float8 as "completionTokens",
      sum(handoffs)::int as handoffs
    from (
      select ${bucketOfHour(sql`b.local_hour`, filter)} as bucket, b.agent_id, b.channel_id, b.model,
        b.prompt_tokens, b.completion_tokens, b.handoffs
      from analytics_run_buckets b
      where b.organization_id = ${org} and ${rolledHours(sql`b.local_hour`, filter)}
        ${runFilter(sql`b.agent_id`, sql`b.channel_id`)}
      union all
      select bucket, agent_id, channel_id, model, prompt_tokens, completion_tokens, handoffs
      from (${runSource(
        bucketOf(sql`r.created_at`, filter),
        sql`r.organization_id = ${org} and ${livePart(sql`r.created_at`, filter)}
          ${runFilter(sql`r.agent_id`, sql`r.channel_id`)}`,
      )}) live
    ) t
    group by bucket, agent_id, channel_id, model`,
  )
  return rowsOf<RunRow>(result)
}

export type StartedRow = {
  /** Which grouping: the whole period, a bucket, a channel, or the agent assigned to the channel now. */
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
 * Conversations started in the period (created: their first message either way) and the median and 90th
 * percentile of their first-response times, overall, per bucket, per channel and per the agent assigned to the
 * channel now. Read from the response-time histogram (response-histogram.ts): the bins of each grouping are summed
 * in SQL (a few hundred rows) and their percentiles read here.
 */
export async function startedRows(db: Database, filter: PeriodFilter): Promise<StartedRow[]> {
  const org = filter.organizationId
  const result = await read(
    db,
    sql`
    select
      case grouping(bucket, s.channel_id, ch.agent_id)
        when 7 then 'total' when 3 then 'bucket' when 5 then 'channel' else 'agent' end as by,
      ${bucketName(sql`bucket`, filter)} as bucket, s.channel_id as "channelId", ch.agent_id as "agentId",
      s.bin, sum(s.conversations)::int as conversations
    from (
      select ${bucketOfHour(sql`b.local_hour`, filter)} as bucket, b.channel_id, b.bin, b.conversations
      from analytics_response_buckets b
      where b.organization_id = ${org} and ${rolledHours(sql`b.local_hour`, filter)}
        and ${inChannels(sql`b.channel_id`, filter)}
      union all
      select bucket, channel_id, bin, conversations
      from (${responseSource(
        bucketOf(sql`c.started_at`, filter),
        sql`c.organization_id = ${org} and ${livePart(sql`c.created_at`, filter)}
          and ${inChannels(sql`c.channel_id`, filter)}`,
      )}) live
    ) s
    join channels ch on ch.id = s.channel_id
    group by grouping sets ((s.bin), (bucket, s.bin), (s.channel_id, s.bin), (ch.agent_id, s.bin))`,
  )
  type BinRow = Omit<StartedRow, 'started' | 'answered' | 'median' | 'p90'> & {
    bin: number
    conversations: number
  }
  const groups = new Map<string, { row: BinRow; started: number; histogram: ResponseHistogram }>()
  for (const row of rowsOf<BinRow>(result)) {
    const key = JSON.stringify([row.by, row.bucket, row.channelId, row.agentId])
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { row, started: 0, histogram: new Map() }))
    group.started += row.conversations
    if (row.bin !== UNANSWERED_BIN) group.histogram.set(row.bin, row.conversations)
  }
  return [...groups.values()].map(({ row, started, histogram }) => ({
    by: row.by,
    bucket: row.bucket,
    channelId: row.channelId,
    agentId: row.agentId,
    started,
    answered: [...histogram.values()].reduce((sum, n) => sum + n, 0),
    median: percentileOf(histogram, 0.5),
    p90: percentileOf(histogram, 0.9),
  }))
}

export type ReasonRow = {
  status: 'failed' | 'received'
  reason: string
  messages: number
  conversationIds: string[]
}

/**
 * The period's most frequent reasons (see reasonSource), counted from the rollup, each with its latest
 * conversations read from the messages: newest first along messages_inbound_reason_idx, one more distinct
 * conversation per step (a recursive walk that stops at `perReason`, not a scan of the reason's messages).
 */
export async function reasonRows(db: Database, filter: PeriodFilter, limit: number, perReason: number) {
  const org = filter.organizationId
  const latestOf = (steps: SQL) => sql`
    select m.conversation_id, m.created_at, m.id from messages m
    where m.organization_id = ${org} and ${REASON_MESSAGE('m')} and m.failure_reason = t.reason
      and m.status = t.status and m.created_at >= ${startOf(filter)} and m.created_at < ${endOf(filter)}
      and ${inChannels(sql`m.channel_id`, filter)} ${steps}
    order by m.created_at desc, m.id desc limit 1`
  const result = await read(
    db,
    sql`
    with top as (
      select status, reason, sum(messages)::int as messages from (
        select b.status, b.reason, b.messages
        from analytics_reason_buckets b
        where b.organization_id = ${org} and ${rolledHours(sql`b.local_hour`, filter)}
          and ${inChannels(sql`b.channel_id`, filter)}
        union all
        select status, reason, messages
        from (${reasonSource(
          sql`null::timestamp`,
          sql`m.organization_id = ${org} and ${livePart(sql`m.created_at`, filter)}
            and ${inChannels(sql`m.channel_id`, filter)}`,
        )}) live
      ) t
      group by 1, 2 order by 3 desc, 2 limit ${limit}
    )
    select t.status, t.reason, t.messages, array(
      with recursive latest as (
        select first.*, array[first.conversation_id] as seen from (${latestOf(sql``)}) first
        union all
        select next.conversation_id, next.created_at, next.id, l.seen || next.conversation_id
        from latest l cross join lateral (${latestOf(
          sql`and (m.created_at, m.id) < (l.created_at, l.id) and m.conversation_id <> all(l.seen)`,
        )}) next
        where cardinality(l.seen) < ${perReason}
      )
      select conversation_id::text from latest
    ) as "conversationIds"
    from top t
    order by t.messages desc, t.reason`,
    { walk: true },
  )
  return rowsOf<ReasonRow>(result)
}

/** Conversations that need a person now, whatever the period (the inbox's count index). */
export async function needingAttention(db: Database, filter: PeriodFilter): Promise<number> {
  const result = await read(
    db,
    sql`
    select count(*)::int as n from conversations c
    where c.organization_id = ${filter.organizationId} and c.state = 'needs_attention'
      and ${inChannels(sql`c.channel_id`, filter)}`,
  )
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0
}

/**
 * The conversations resolved in the period, and those of them the AI resolved alone: no person was needed (a
 * handoff, a failure) and none wrote (the partial index of resolved conversations by time).
 */
export async function resolutions(
  db: Database,
  filter: PeriodFilter,
): Promise<{ resolved: number; byAi: number }> {
  const result = await db.execute(sql`
    select count(*)::int as resolved, (count(*) filter (where not c.needed_person))::int as "byAi"
    from conversations c
    where c.organization_id = ${filter.organizationId} and c.status = 'resolved'
      and c.resolved_at >= ${startOf(filter)} and c.resolved_at < ${endOf(filter)}
      and ${inChannels(sql`c.channel_id`, filter)}`)
  return rowsOf<{ resolved: number; byAi: number }>(result)[0] ?? { resolved: 0, byAi: 0 }
}
