import { createHash } from 'node:crypto'
import { SQL, sql } from 'drizzle-orm'
import { fromDrizzle, type PgBoss } from 'pg-boss'
import type { Database } from './client.server'
import { rowsOf } from './rows.server'

// Jobs inside our own transaction: a rollback removes them with our rows. Sent one at a time through pg-boss's
// public drizzle adapter (jobsIn); inserted many at once by our own statements through jobInsertSql, the one place
// that writes pg-boss's job table, checked column by column against pg-boss's send (jobs.server.test.ts).

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]

/** Where pg-boss keeps a queue's jobs: its schema and the queue's table (read once at start). */
export type JobTable = { schema: string; table: string; queue: string }

/** A queue's job table, from pg-boss's own record of the queue. */
export async function jobTableOf(
  boss: Pick<PgBoss, 'getQueue'>,
  schema: string,
  queue: string,
): Promise<JobTable> {
  const record = await boss.getQueue(queue)
  if (!record) throw new Error(`The ${queue} queue does not exist yet`)
  return { schema, table: record.table, queue }
}

/**
 * pg-boss's sends inside our transaction (its drizzle adapter). Our Database type is generic over the driver, so
 * `execute` answers `unknown` to the compiler: the shapes the two drivers give are checked instead.
 */
export function jobsIn(tx: Transaction) {
  return fromDrizzle(
    {
      async execute(query: unknown) {
        if (!(query instanceof SQL)) throw new Error('pg-boss passed a query that is not drizzle SQL')
        return { rows: rowsOf(await tx.execute(query)) }
      },
    },
    sql,
  )
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/

function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Not a plain SQL identifier: ${name}`)
  return name
}

/** pg-boss's NOTIFY channel for a schema, as an SQL literal: `pgboss_` and 24 hex digits of the name's SHA-224. */
export function jobChannelOf(schema: string): string {
  return `'pgboss_${createHash('sha224').update(identifier(schema)).digest('hex').slice(0, 24)}'`
}

/** The database's clock as pg-boss reads it (PGlite's and PostgreSQL's differ in resolution). */
export const jobNowSql = (schema: string) => `${identifier(schema)}.job_now()`

/**
 * Inserts a queue's jobs from `jobs`, a relation with `id` (uuid), `data` (jsonb), `singleton_key` (text) and
 * `start_after` (timestamptz), taking the queue's own settings (retries, expiry, retention, policy) as pg-boss's
 * send does. Returns the inserted jobs' `id` and `start_after`; a job that pg-boss's keys refuse is left out.
 */
export function jobInsertSql({ schema, table, queue }: JobTable, jobs: SQL): SQL {
  const s = identifier(schema)
  return sql`insert into ${sql.raw(`${s}.${identifier(table)}`)} (id, name, data, singleton_key, start_after,
      created_on, keep_until, expire_seconds, deletion_seconds, retry_limit, retry_delay, retry_backoff,
      retry_delay_max, policy, dead_letter, heartbeat_seconds)
    select j.id, q.name, j.data, j.singleton_key, j.start_after,
      ${sql.raw(jobNowSql(s))}, j.start_after + q.retention_seconds * interval '1 second', q.expire_seconds,
      q.deletion_seconds, q.retry_limit, q.retry_delay, coalesce(q.retry_backoff, false), q.retry_delay_max,
      q.policy, q.dead_letter, q.heartbeat_seconds
    from (${jobs}) j
    join ${sql.raw(`${s}.queue`)} q on q.name = ${sql.raw(`'${identifier(queue)}'`)}
    on conflict do nothing
    returning id, start_after`
}
