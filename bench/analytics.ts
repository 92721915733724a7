#!/usr/bin/env node
/**
 * The dashboard's figures at scale (issue 19): `getAnalytics` for the last 30 days over 1,000,000 messages in one
 * organization (and 10 smaller ones beside it) on a throwaway PostgreSQL 15 cluster.
 *
 * Reproduce: `npm run bench:analytics` (a few minutes, seeding included).
 *  1. A throwaway cluster (scripts/lib/postgres.js) brought to the current schema by `openDatabase`.
 *  2. Seeding in bulk SQL (generate_series, insert … select): the large organization (time zone Europe/Berlin)
 *     has 3 agents and 12 channels, BENCH_CONVERSATIONS (50,000) conversations started over the last 30 days and
 *     BENCH_MESSAGES (1,000,000) messages; each of 10 others has 1 agent, 3 channels, 2,000 conversations and
 *     about 40,000 messages. A conversation is 1 to 20 exchanges 1 to 20 minutes apart: the customer writes, then
 *     (85%) the agent answers 2 to 60 s later with a run (tokens; 80% on a priced model, 20% on one without a
 *     price; 1% of runs hand over), or (5%) a person answers while the AI is paused, or the message failed (3%),
 *     was left to a person with no agent (5%), or while paused with no answer (2%). 2% more runs are the Agents
 *     screen's tests. VACUUM ANALYZE afterwards, as a settled database.
 *  3. One dashboard call without the rollup (everything from the source tables), then the rollup job's first run
 *     (the whole history) and a later one (the last 48 hours), timed, up to 20 minutes before the last message
 *     (the dashboard reads that tail from the source tables, as it would between two runs of the job).
 *  4. The whole dashboard (one `getAnalytics` call: its lookup and its six statements, concurrent on the pool)
 *     BENCH_SAMPLES (40) times after BENCH_WARMUP (5), for each variant: no filter, a channel filter, an agent
 *     filter; then each statement alone, the same number of times.
 *  5. Printed: p50/p95 per variant and per statement; EXPLAIN (ANALYZE, BUFFERS) of the slowest statement.
 * Target: p95 < 200 ms for the whole dashboard. Exit code 1 when missed. BENCH_KEEP=1 keeps the cluster.
 * BENCH_DATABASE_URL=postgres://…/empty runs it on a database of your own instead of a throwaway cluster.
 */
import { cpus, loadavg } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { drizzle } from 'drizzle-orm/node-postgres'
import type pg from 'pg'
import { openDatabase, type Database } from '../app/db/client.server'
import * as schema from '../app/db/schema'
import { ANALYTICS_ROLLUP, presetPeriod } from '../app/lib/analytics/analytics'
import { getAnalytics } from '../app/services/analytics/analytics.server'
import {
  needingAttention,
  outcomeRows,
  readRollup,
  reasonRows,
  resolutions,
  runRows,
  startedRows,
  type PeriodFilter,
} from '../app/services/analytics/analytics-queries.server'
import { rollUpAnalytics } from '../app/services/analytics/rollup.server'
import { requireOrganizationScope } from '../app/services/organizations/scope.server'
import { seedAnalytics, type SeededOrg } from './lib/analytics-seed'
import { finishBench, runBench } from './report'
import { startThrowawayPostgres } from '../scripts/lib/postgres.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS) || 50_000
const MESSAGES = Number(process.env.BENCH_MESSAGES) || 1_000_000
const SAMPLES = Number(process.env.BENCH_SAMPLES) || 40
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5)
const OTHER_ORGANIZATIONS = 10
const TARGET_MS = 200
const TIME_ZONE = 'Europe/Berlin'

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
const since = (startedAt: number) => `${fmt((performance.now() - startedAt) / 1000, 1)} s`
function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

type Org = SeededOrg

/** bench/lib/analytics-seed.ts on the pool's one connection. */
async function seed(pool: pg.Pool): Promise<Org> {
  const client = await pool.connect()
  try {
    return await seedAnalytics(
      async (text) => {
        const result: pg.QueryResult | pg.QueryResult[] = await client.query(text)
        return (Array.isArray(result) ? result.at(-1)?.rows : result.rows) ?? []
      },
      {
        conversations: CONVERSATIONS,
        messages: MESSAGES,
        otherOrganizations: OTHER_ORGANIZATIONS,
        timeZone: TIME_ZONE,
      },
    )
  } finally {
    client.release(true)
  }
}

/** The large organization of an earlier run on the same database (BENCH_DATABASE_URL), if any. */
async function seededOrg(pool: pg.Pool): Promise<Org | undefined> {
  const { rows } = await pool.query<Org>(
    `select o.id, m.user_id as "userId",
       (select array_agg(id order by readable_id) from agents a where a.organization_id = o.id) as "agentIds",
       (select array_agg(id order by (metadata->>'name')) from channels c where c.organization_id = o.id) as "channelIds"
     from organizations o join memberships m on m.organization_id = o.id where o.name = 'Bench 0'`,
  )
  return rows[0]
}

type Timed = { label: string; run: () => Promise<unknown> }

async function measure(timed: Timed) {
  for (let i = 0; i < WARMUP; i++) await timed.run()
  const times: number[] = []
  for (let i = 0; i < SAMPLES; i++) {
    const startedAt = performance.now()
    await timed.run()
    times.push(performance.now() - startedAt)
  }
  times.sort((a, b) => a - b)
  return {
    label: timed.label,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: times.at(-1) ?? 0,
  }
}

async function main() {
  console.log(
    `bench:analytics: ${fmt(MESSAGES)} messages and ${fmt(CONVERSATIONS)} conversations over 30 days in one ` +
      `organization, ${OTHER_ORGANIZATIONS} smaller ones beside it; ${SAMPLES} calls per variant after ${WARMUP}`,
  )
  console.log(
    `machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  // BENCH_DATABASE_URL: an empty database on a server of your own (e.g. on a port you were given) instead of a
  // throwaway cluster on a free port.
  const postgres = process.env.BENCH_DATABASE_URL
    ? { url: process.env.BENCH_DATABASE_URL, stop: async () => undefined }
    : await startThrowawayPostgres()
  let stopping: Promise<void> | undefined
  const stop = () => (stopping ??= postgres.stop())
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => void stop().finally(() => process.exit(130)))
  }
  const failures: string[] = []
  try {
    const handle = await openDatabase({
      databaseUrl: postgres.url,
      dataDir: ROOT,
      migrationsFolder: path.join(ROOT, 'app/db/migrations'),
    })
    const pool = handle.pool
    if (!pool) throw new Error('Expected PostgreSQL')
    try {
      const seedStartedAt = performance.now()
      const seeded = await seededOrg(pool)
      if (seeded) console.log('\nBENCH_DATABASE_URL holds a seeded database: measured as it is')
      else console.log('\nseeding:')
      const org = seeded ?? (await seed(pool))
      const vacuumAt = performance.now()
      await pool.query('vacuum analyze')
      console.log(`  vacuum analyze: ${since(vacuumAt)}`)
      const counts = (
        await pool.query<{ messages: number; org_messages: number; runs: number }>(
          `select (select count(*)::int from messages) as messages,
             (select count(*)::int from messages where organization_id = $1) as org_messages,
             (select count(*)::int from agent_runs) as runs`,
          [org.id],
        )
      ).rows[0]
      console.log(
        `seeded in ${since(seedStartedAt)}: ${fmt(counts.org_messages)} messages in the large organization, ` +
          `${fmt(counts.messages)} in all, ${fmt(counts.runs)} agent runs`,
      )
      const settings = (
        await pool.query(
          `select current_setting('server_version') as v, current_setting('shared_buffers') as sb, current_setting('work_mem') as wm`,
        )
      ).rows[0]
      console.log(`PostgreSQL ${settings.v}: shared_buffers ${settings.sb}, work_mem ${settings.wm}`)

      const scope = await requireOrganizationScope({
        db: handle.db,
        userId: org.userId,
        organizationId: org.id,
      })
      const period = presetPeriod('30d', TIME_ZONE)
      const unfiltered = { ...period, granularity: 'day' as const }

      // Without the rollup: every figure from the source tables, once (docs/decisions/044's "before").
      let startedAt = performance.now()
      await getAnalytics(scope, unfiltered)
      console.log(`
without the rollup (one call, all from the source tables): ${fmt(performance.now() - startedAt)} ms`)

      // The rollup up to 20 minutes before the last message: the dashboard reads the rest of that local hour and
      // the 20 minutes from the source tables (at worst the hour in progress and the job's 5 minutes).
      const last = (
        await pool.query<{ at: Date }>(
          `select max(created_at) as at from messages where organization_id = $1`,
          [org.id],
        )
      ).rows[0].at
      const rollTo = new Date(last.getTime() - 20 * 60_000)
      startedAt = performance.now()
      await rollUpAnalytics(handle.db, { now: rollTo })
      console.log(`rollup, first run (the whole history, every organization): ${since(startedAt)}`)
      startedAt = performance.now()
      await rollUpAnalytics(handle.db, { now: rollTo })
      console.log(
        `rollup, a later run (rewrites the last ${ANALYTICS_ROLLUP.reworkHours} h): ${since(startedAt)}`,
      )
      await pool.query(
        'vacuum analyze analytics_message_buckets, analytics_run_buckets, analytics_reason_buckets, analytics_response_buckets',
      )
      const rolled = (
        await pool.query<{ table: string; rows: number }>(
          `select relname as table, reltuples::int as rows from pg_class
           where relname in ('analytics_message_buckets', 'analytics_run_buckets', 'analytics_reason_buckets',
             'analytics_response_buckets') order by 1`,
        )
      ).rows
      console.log(`rollup rows: ${rolled.map((r) => `${r.table} ${fmt(r.rows)}`).join(', ')}`)
      const tail = (
        await pool.query<{ n: number }>(
          `select count(*)::int as n from messages where organization_id = $1 and created_at >= $2`,
          [org.id, new Date(Math.floor(rollTo.getTime() / 3_600_000) * 3_600_000)],
        )
      ).rows[0].n
      console.log(
        `messages after the rollup's end (the start of its local hour), read from the source: ${fmt(tail)}`,
      )
      const base = unfiltered
      const variants = {
        'no filter': { ...base },
        'channel filter': { ...base, channelId: org.channelIds[0] },
        'agent filter': { ...base, agentId: org.agentIds[0] },
      }
      console.log(`\nperiod ${period.from} to ${period.to} (${TIME_ZONE}), granularity day`)
      const sample = await getAnalytics(scope, variants['no filter'])
      const t = sample.totals
      console.log(
        `figures: received ${fmt(t.received)}, by AI ${fmt(t.answeredByAi)}, by a person ${fmt(t.answeredByPerson)}, ` +
          `failed ${fmt(t.failed)}, paused ${fmt(t.paused)}, no agent ${fmt(t.noAgent)}; started ${fmt(t.conversationsStarted)}, ` +
          `first response median ${fmt(t.firstResponseMedianSeconds ?? 0, 1)} s; tokens ${fmt(t.totalTokens)}, ` +
          `cost $${fmt(t.cost, 2)} (${fmt(t.unpricedTokens)} unpriced)`,
      )

      const load = () =>
        `load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`
      console.log(`\nthe whole dashboard (getAnalytics: lookup + 6 concurrent statements), ${load()}:`)
      const results = []
      for (const [label, query] of Object.entries(variants)) {
        const r = await measure({ label, run: () => getAnalytics(scope, query) })
        results.push(r)
        const pass = r.p95 < TARGET_MS
        if (!pass) failures.push(`dashboard, ${label}: p95 ${fmt(r.p95, 1)} ms (target ${TARGET_MS} ms)`)
        console.log(
          `  ${label}: p50 ${fmt(r.p50, 1)} ms, p95 ${fmt(r.p95, 1)} ms, max ${fmt(r.max, 1)} ms ${pass ? 'pass' : 'FAIL'}`,
        )
      }

      // Each statement alone, with the filter getAnalytics builds for the unfiltered dashboard.
      let recorded: { query: string; params: unknown[] }[] = []
      const recorder = drizzle(pool, {
        schema,
        logger: { logQuery: (query, params) => void recorded.push({ query, params }) },
      })
      const filter: PeriodFilter = {
        organizationId: org.id,
        ...base,
        timeZone: TIME_ZONE,
        rolledUntil: (await readRollup(handle.db, org.id))?.until ?? null,
      }
      const statements: Record<string, (db: Database) => Promise<unknown>> = {
        'outcomes (messages by bucket, channel, outcome)': (db) => outcomeRows(db, filter),
        'runs (tokens, handoffs)': (db) => runRows(db, filter),
        'conversations started, first response': (db) => startedRows(db, filter),
        'failure reasons': (db) => reasonRows(db, filter, 10, 5),
        'needing attention': (db) => needingAttention(db, filter),
        'resolutions (the AI resolution rate)': (db) => resolutions(db, filter),
      }
      console.log(`\neach statement alone (no filter), ${load()}:`)
      let slowest: { label: string; p95: number } | undefined
      for (const [label, run] of Object.entries(statements)) {
        const r = await measure({ label, run: () => run(handle.db) })
        console.log(`  ${label}: p50 ${fmt(r.p50, 1)} ms, p95 ${fmt(r.p95, 1)} ms`)
        if (!slowest || r.p95 > slowest.p95) slowest = { label, p95: r.p95 }
      }
      if (slowest) {
        recorded = []
        await statements[slowest.label](recorder)
        for (const statement of recorded.filter((r) => /^\s*(with|select)\b/i.test(r.query))) {
          if (statement.query.includes('set_config')) continue
          const client = await pool.connect()
          await client.query(`select set_config('jit', 'off', false), set_config('work_mem', '32MB', false)`)
          const plan = await client.query<{ 'QUERY PLAN': string }>(
            `explain (analyze, buffers) ${statement.query}`,
            statement.params,
          )
          client.release(true)
          console.log(`\nslowest: ${slowest.label}. EXPLAIN (ANALYZE, BUFFERS), ${load()}:`)
          console.log(`-- ${statement.query.replace(/\s+/g, ' ')}`)
          console.log(plan.rows.map((row) => row['QUERY PLAN']).join('\n'))
        }
      }
    } finally {
      await handle.close()
    }
    if (process.env.BENCH_KEEP === '1') {
      console.log(`\nBENCH_KEEP=1: the cluster stays up at ${postgres.url} until Ctrl-C`)
      await new Promise<void>(() => setInterval(() => undefined, 60_000))
    }
  } finally {
    await stop()
  }
  finishBench(failures, 'All targets met.')
}

runBench(main)
