import { sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { rowsOf } from '~/db/rows.server'
import { ANALYTICS_ROLLUP } from '~/lib/analytics'
import {
  conversationSource,
  outcomeSource,
  quarterOf,
  reasonSource,
  runSource,
} from './analytics-queries.server'

const QUARTER_SECONDS = 15 * 60

/**
 * Writes the dashboard's rollup (docs/decisions/044) for every organization: the quarter-hour buckets from
 * `reworkHours` before the last run's end (or from the beginning, on the first run) up to the last whole quarter
 * of an hour before `now`, replacing what was there (a message's outcome changes after it arrives: it is
 * answered, it fails, a person answers it later), then moves `rolled_until` there. One transaction, serialized
 * by the state row's lock: the dashboard sees the old buckets and the old `rolled_until`, or both new. A change
 * to a message older than `reworkHours` at the time of a run is not seen by the dashboard.
 */
export async function rollUpAnalytics(
  db: Database,
  { now = new Date(), reworkHours = ANALYTICS_ROLLUP.reworkHours }: { now?: Date; reworkHours?: number } = {},
) {
  const upperSeconds = Math.floor(now.getTime() / 1000 / QUARTER_SECONDS) * QUARTER_SECONDS
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`insert into analytics_rollup (id, rolled_until) values (1, '-infinity') on conflict (id) do nothing`,
    )
    const [state] = rowsOf<{ fresh: boolean; until: number | null }>(
      await tx.execute(sql`select rolled_until = '-infinity' as fresh,
        extract(epoch from rolled_until)::float8 as until from analytics_rollup where id = 1 for update`),
    )
    const upper = sql`to_timestamp(${upperSeconds})`
    const lowerSeconds = state.fresh
      ? null
      : Math.min(state.until ?? upperSeconds, upperSeconds) - reworkHours * 3600
    const lower = lowerSeconds === null ? sql`'-infinity'::timestamptz` : sql`to_timestamp(${lowerSeconds})`
    const within = (column: string) => sql`${sql.raw(column)} >= ${lower} and ${sql.raw(column)} < ${upper}`

    await tx.execute(sql`delete from analytics_message_buckets where ${within('bucket_at')}`)
    await tx.execute(sql`insert into analytics_message_buckets (bucket_at, organization_id, channel_id, received,
        answered_by_ai, answered_by_person, failed, paused, no_agent, waiting)
      select x.* from organizations o cross join lateral (${outcomeSource(
        quarterOf(sql`m.created_at`),
        sql`m.organization_id = o.id and ${within('m.created_at')}`,
      )}) x`)

    await tx.execute(sql`delete from analytics_run_buckets where ${within('bucket_at')}`)
    await tx.execute(sql`insert into analytics_run_buckets (bucket_at, organization_id, agent_id, channel_id, model,
        prompt_tokens, completion_tokens, handoffs)
      select x.* from organizations o cross join lateral (${runSource(
        quarterOf(sql`r.created_at`),
        sql`r.organization_id = o.id and ${within('r.created_at')}`,
      )}) x`)

    await tx.execute(sql`delete from analytics_reason_buckets where ${within('bucket_at')}`)
    await tx.execute(sql`insert into analytics_reason_buckets (bucket_at, organization_id, channel_id, status, reason,
        messages, conversation_ids)
      select x.* from organizations o cross join lateral (${reasonSource(
        quarterOf(sql`m.created_at`),
        sql`m.organization_id = o.id and ${within('m.created_at')}`,
        ANALYTICS_ROLLUP.conversationsPerReason,
      )}) x`)

    await tx.execute(sql`delete from analytics_conversations where ${within('started_at')}`)
    await tx.execute(sql`insert into analytics_conversations (conversation_id, organization_id, channel_id,
        started_at, first_response_seconds)
      select x.* from organizations o cross join lateral (${conversationSource(
        sql`c.organization_id = o.id and ${within('c.created_at')}`,
      )}) x`)

    await tx.execute(
      sql`update analytics_rollup set rolled_until = ${upper}, updated_at = now() where id = 1`,
    )
    return {
      from: lowerSeconds === null ? null : new Date(lowerSeconds * 1000),
      until: new Date(upperSeconds * 1000),
    }
  })
}
