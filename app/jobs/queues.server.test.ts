import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '~/db/client.server'
import { ingestInbound } from '~/services/messages/ingest/ingest.server'
import { REPLY_QUEUE } from '~/services/messages/ingest/reply-queue.server'
import { createLogger } from '~/utils/logger.server'
import { openTestDatabase } from '../../tests/setup/database'
import { newOwnerScope } from '../../tests/setup/scope'
import { connectTelegramBot } from '~/services/channels/telegram.server'
import { startTelegramFake, type TelegramFake } from '../../tests/fakes/telegram-server'
import { createTelegramClient } from '~/integrations/telegram/bot-api.server'
import {
  CHANNEL_HEALTH_QUEUE,
  channelHealthCron,
  REPLY_QUEUE_OPTIONS,
  startQueues,
  stopQueues,
} from '~/jobs/queues.server'

let handle: DatabaseHandle
let telegram: TelegramFake
beforeAll(async () => {
  ;[handle, telegram] = await Promise.all([openTestDatabase(), startTelegramFake()])
})
afterAll(async () => {
  await Promise.all([handle.close(), telegram.close()])
})

const logs: string[] = []
const logger = createLogger({ sink: (line) => logs.push(line) })
const freshSchema = () => `pgboss_${randomUUID().replaceAll('-', '').slice(0, 12)}`
const start = (schema: string) =>
  startQueues({ database: handle, databaseUrl: process.env.DATABASE_URL, logger, schema })

async function newChannel() {
  const scope = await newOwnerScope(handle.db)
  const token = `${9_100_000 + Math.floor(Math.random() * 100_000)}:${'a'.repeat(35)}`
  telegram.addBot({ token, username: 'queue_bot' })
  const deps = {
    publicUrl: 'https://example.com',
    telegramUpdates: 'webhook' as const,
    encryptionKey: '0'.repeat(64),
    telegram: createTelegramClient({ apiRoot: telegram.apiRoot }),
  }
  return connectTelegramBot(scope, { botToken: token }, deps)
}

describe('startQueues', () => {
  it('on PostgreSQL, runs pg-boss statements that come again as prepared statements (planned once a connection)', async () => {
    const schema = freshSchema()
    const boss = await start(schema)
    try {
      const db = boss.getDb()
      const text = `select count(*)::int as n from ${schema}.job where name = $1`
      const prepared = async () => {
        const { rows } = await db.executeSql(
          'select count(*)::int as n from pg_prepared_statements where statement = $1',
          [text],
        )
        return (rows as { n: number }[])[0].n > 0
      }
      let found = false
      // The check runs on whichever of pg-boss's connections is free: a few rounds reach one that prepared it.
      for (let round = 0; round < 6 && !found; round++) {
        await db.executeSql(text, [REPLY_QUEUE])
        found = await prepared()
      }
      expect(found).toBe(handle.driver === 'postgres')
      // A statement run once is not prepared; several statements in one text never are.
      await db.executeSql(`select 1 as once_marker_${schema}`)
      await db.executeSql(`select 2 as twice_marker_${schema}; select 3`)
      await db.executeSql(`select 2 as twice_marker_${schema}; select 3`)
      const { rows } = await db.executeSql(
        'select count(*)::int as n from pg_prepared_statements where statement like $1',
        [`%marker_${schema}%`],
      )
      expect((rows as { n: number }[])[0].n).toBe(0)
    } finally {
      await stopQueues(boss)
    }
  })

  it('is ready for a send inside a transaction as soon as it has started (no hang on PGlite)', async () => {
    const channel = await newChannel()
    const boss = await start(freshSchema())
    try {
      const message = {
        organizationId: channel.organizationId,
        channelId: channel.id,
        platformChatId: '1',
        platformMessageId: '1:1',
        senderId: '1',
        senderName: 'Ann',
        text: 'first message after a fresh start',
        kind: 'text' as const,
        answerable: true,
        platformSentAt: new Date(),
      }
      const result = await Promise.race([
        ingestInbound({ db: handle.db, boss, message }),
        new Promise((resolve) => setTimeout(() => resolve('hung'), 5000)),
      ])
      expect(result).toMatchObject({ stored: true })
    } finally {
      await stopQueues(boss, 1000)
    }
  })

  it('creates the reply queue once, and on a restart brings its settings up to date', async () => {
    const schema = freshSchema()
    const first = await start(schema)
    await first.updateQueue(REPLY_QUEUE, { retryLimit: 1 })
    await stopQueues(first, 1000)

    const again = await start(schema)
    try {
      expect(await again.getQueue(REPLY_QUEUE)).toMatchObject({
        policy: 'key_strict_fifo',
        notify: true,
        retryLimit: REPLY_QUEUE_OPTIONS.retryLimit,
        heartbeatSeconds: REPLY_QUEUE_OPTIONS.heartbeatSeconds,
      })
    } finally {
      await stopQueues(again, 1000)
    }
  })

  it('schedules the channel health check every CHANNEL_HEALTH_INTERVAL_HOURS hours (6 by default)', async () => {
    expect(channelHealthCron(6)).toBe('41 */6 * * *')
    expect(channelHealthCron(24)).toBe('41 0 * * *')
    const schema = freshSchema()
    const boss = await startQueues({
      database: handle,
      databaseUrl: process.env.DATABASE_URL,
      logger,
      schema,
      channelHealthIntervalHours: 12,
    })
    try {
      const schedules = await boss.getSchedules(CHANNEL_HEALTH_QUEUE)
      expect(schedules.map(({ name, cron }) => ({ name, cron }))).toEqual([
        { name: CHANNEL_HEALTH_QUEUE, cron: '41 */12 * * *' },
      ])
    } finally {
      await stopQueues(boss, 1000)
    }
  })

  it('refuses a reply queue made with another policy: pg-boss cannot change it in place', async () => {
    const schema = freshSchema()
    const boss = await start(schema)
    await boss.deleteQueue(REPLY_QUEUE)
    await boss.createQueue(REPLY_QUEUE, { policy: 'standard' })
    await stopQueues(boss, 1000)
    await expect(start(schema)).rejects.toThrow('has policy standard, not key_strict_fifo')
  })
})
