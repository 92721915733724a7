import pg from 'pg'
import { drizzle } from 'drizzle-orm/node-postgres'
import * as schema from '../app/db/schema'
import { readRolledUntil, outcomeRows, runRows, startedRows, reasonRows, needingAttention } from '../app/services/analytics/analytics-queries.server'
import { presetPeriod } from '../app/lib/analytics'
const pool = new pg.Pool({ connectionString: process.env.URL })
const rec: { query: string; params: unknown[] }[] = []
const db = drizzle(pool, { schema, logger: { logQuery: (query, params) => void rec.push({ query, params }) } })
const org = (await pool.query(`select id from organizations where name = 'Bench 0'`)).rows[0].id
const filter = { rolledUntil: await readRolledUntil(db), organizationId: org, ...presetPeriod('30d', 'Europe/Berlin'), timeZone: 'Europe/Berlin', granularity: 'day' as const }
const only = process.env.ONLY
for (const [name, f] of Object.entries({ outcomeRows, runRows, startedRows, reasonRows: (d: typeof db, x: typeof filter) => reasonRows(d, x, 10, 5), needingAttention })) {
  if (only && only !== name) continue
  rec.length = 0
  const t = performance.now()
  await (f as (d: typeof db, x: typeof filter) => Promise<unknown>)(db, filter)
  console.log(name, Math.round(performance.now() - t), 'ms')
  if (process.env.EXPLAIN) {
    const q = rec.find((r) => /^\s*(with|select)/i.test(r.query) && !r.query.includes("set_config"))!; const c = await pool.connect(); await c.query("set jit = off"); const plan = await c.query(`explain (analyze, buffers) ${q.query}`, q.params); c.release()
    console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'))
  }
}
await pool.end()
