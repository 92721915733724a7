import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { rowsOf } from '~/db/rows.server'
import { ANALYTICS_ROLLUP } from '~/lib/analytics/analytics'
import {
  localHourOf,
  outcomeSource,
  reasonSource,
  responseSource,
  runSource,
} from './analytics-queries.server'

/**
 * Writes the dashboard's rollup (docs/decisions/044) for every organization, in local hours of its time zone:
 * from `reworkHours` before its last run's end (from the beginning on its first run, or after its time zone
 * changed) up to the start of the current local hour, replacing what was there (a message's outcome changes
 * after it arrives: it is answered, it fails, a person answers it later), then moves the organization's
 * `rolled_until` there. One transaction; concurrent runs wait for each other (the state table's lock), readers
 * never wait and see the old buckets with the old `rolled_until` or both new. A change to a message older than
 * `reworkHours` at the time of a run is not seen by the dashboard.
 */
export async function rollUpAnalytics(
  db: Database,
  { now = new Date(), reworkHours = ANALYTICS_ROLLUP.reworkHours }: { now?: Date; reworkHours?: number } = {},
) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table analytics_rollup in share row exclusive mode`)
    // Each organization's window in local hours, and in instants with an hour's slack either way for the index
    // ranges (a clock change moves local hours against instants); rows are picked by their local hour.
    await tx.execute(sql`create temp table analytics_window on commit drop as
      select o.id, o.time_zone, w.lower_local, w.upper_local,
        case when w.lower_local = '-infinity' then '-infinity'::timestamptz
          else (w.lower_local at time zone o.time_zone) - interval '1 hour' end as lower_at,
        (w.upper_local at time zone o.time_zone) + interval '1 hour' as upper_at
      from organizations o
      left join analytics_rollup s on s.organization_id = o.id
      cross join lateral (select date_trunc('hour', ${now.toISOString()}::timestamptz at time zone o.time_zone) as upper_local) u
      cross join lateral (
        select u.upper_local,
          case when s.organization_id is null or s.time_zone <> o.time_zone then '-infinity'::timestamp
            else date_trunc('hour', least(s.rolled_until at time zone o.time_zone, u.upper_local)
              - ${reworkHours} * interval '1 hour') end as lower_local
      ) w`)
    const window = (column: string, localHour: SQL) =>
      sql`${sql.raw(column)} >= w.lower_at and ${sql.raw(column)} < w.upper_at
        and ${localHour} >= w.lower_local and ${localHour} < w.upper_local`
    const hourOf = (column: string) => localHourOf(sql.raw(column), sql`w.time_zone`)
    const clear = (table: string) =>
      tx.execute(sql`delete from ${sql.raw(table)} b using analytics_window w
        where b.organization_id = w.id and b.local_hour >= w.lower_local and b.local_hour < w.upper_local`)

    await clear('analytics_message_buckets')
    await tx.execute(sql`insert into analytics_message_buckets (local_hour, organization_id, channel_id, received,
        answered_by_ai, answered_by_person, failed, paused, no_agent, waiting)
      select x.* from analytics_window w cross join lateral (${outcomeSource(
        hourOf('m.created_at'),
        sql`m.organization_id = w.id and ${window('m.created_at', hourOf('m.created_at'))}`,
      )}) x`)

    await clear('analytics_run_buckets')
    await tx.execute(sql`insert into analytics_run_buckets (local_hour, organization_id, agent_id, channel_id, model,
        prompt_tokens, completion_tokens, handoffs)
      select x.* from analytics_window w cross join lateral (${runSource(
        hourOf('r.created_at'),
        sql`r.organization_id = w.id and ${window('r.created_at', hourOf('r.created_at'))}`,
      )}) x`)

    await clear('analytics_reason_buckets')
    await tx.execute(sql`insert into analytics_reason_buckets (local_hour, organization_id, channel_id, status, reason,
        messages)
      select x.* from analytics_window w cross join lateral (${reasonSource(
        hourOf('m.created_at'),
        sql`m.organization_id = w.id and ${window('m.created_at', hourOf('m.created_at'))}`,
      )}) x`)

    await clear('analytics_response_buckets')
    await tx.execute(sql`insert into analytics_response_buckets (local_hour, organization_id, channel_id, bin,
        conversations)
      select x.* from analytics_window w cross join lateral (${responseSource(
        hourOf('c.started_at'),
        sql`c.organization_id = w.id and ${window('c.created_at', hourOf('c.created_at'))}`,
      )}) x`)

    const rolled =
      await tx.execute(sql`insert into analytics_rollup (organization_id, time_zone, rolled_until)
      select id, time_zone, upper_local at time zone time_zone from analytics_window
      on conflict (organization_id) do update
        set time_zone = excluded.time_zone, rolled_until = excluded.rolled_until, updated_at = now()
      returning organization_id`)
    return { organizations: rowsOf(rolled).length }
  })
}
