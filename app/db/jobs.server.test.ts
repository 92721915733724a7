import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { notifyChannelSql } from 'pg-boss/dist/plans.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nextJobId, REPLY_QUEUE } from '~/services/messages/ingest/reply-queue.server'
import { startPipeline, type Pipeline } from '../../tests/setup/pipeline'
import { rowsOf } from './rows.server'
import { jobChannelOf, jobInsertSql, jobNowSql } from './jobs.server'

let p: Pipeline
beforeAll(async () => {
  p = await startPipeline({ worker: false })
})
afterAll(async () => {
  await p.close()
})

// Our insert writes pg-boss's own table, so it is held to what pg-boss's send writes, column by column: a new
// pg-boss version that adds or changes a column fails here, not in a customer's reply.
describe('jobInsertSql', () => {
  async function jobRow(id: string) {
    const [row] = rowsOf<Record<string, unknown>>(
      await p.db.execute(
        sql`select *, extract(epoch from keep_until - start_after) as retained,
          extract(epoch from start_after - created_on) as delayed
        from ${sql.raw(`${p.jobs.schema}.${p.jobs.table}`)} where id = ${id}`,
      ),
    )
    return row
  }

  it('writes every column as pg-boss sends the same job', async () => {
    const sentId = await p.boss.send(
      REPLY_QUEUE,
      { messageId: 'same' },
      { id: nextJobId(), singletonKey: randomUUID(), startAfter: 30 },
    )
    const ourId = nextJobId()
    const inserted = rowsOf<{ id: string }>(
      await p.db.execute(
        jobInsertSql(
          p.jobs,
          sql`select ${ourId}::uuid as id, '{"messageId":"same"}'::jsonb as data, ${randomUUID()}::text as singleton_key,
            ${sql.raw(jobNowSql(p.jobs.schema))} + interval '30 seconds' as start_after`,
        ),
      ),
    )
    expect(inserted.map((row) => row.id)).toEqual([ourId])

    const different = ['id', 'singleton_key', 'start_after', 'created_on', 'keep_until']
    const comparable = (row: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(row).filter(([column]) => !different.includes(column)))
    const sent = await jobRow(sentId!)
    const ours = await jobRow(ourId)
    expect(Object.keys(ours).sort()).toEqual(Object.keys(sent).sort())
    expect(comparable(ours)).toEqual(comparable(sent))
    expect(Number(ours.delayed)).toBeCloseTo(30, 0)
  })

  it('announces on the channel pg-boss listens to', async () => {
    const [row] = rowsOf<{ channel: string }>(
      await p.db.execute(sql.raw(`select ${notifyChannelSql(p.jobs.schema)} as channel`)),
    )
    expect(jobChannelOf(p.jobs.schema)).toBe(`'${row.channel}'`)
  })

  it('refuses a name that is not a plain identifier', () => {
    expect(() => jobChannelOf('pgboss; drop table x')).toThrow(/identifier/)
    expect(() => jobInsertSql({ ...p.jobs, queue: "reply'" }, sql`select 1`)).toThrow(/identifier/)
  })
})
