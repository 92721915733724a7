import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handleReplyJob } from '~/jobs/reply.server'
import { ingestInboundBatch } from './ingest/batch.server'
import { normalizeTelegramUpdate } from './inbound/telegram.server'
import type { NormalizedMessage } from './ingest/ingest.server'
import { REPLY_QUEUE } from './ingest/reply-queue.server'
import { authenticateTelegramWebhook, receiveTelegramUpdate } from './inbound/telegram.server'
import { telegramUpdateSchema } from '~/integrations/telegram/update.server'
import { addTestShop } from '../../../tests/setup/knowledge'
import { startPipeline, textUpdate, type Pipeline, type TestBot } from '../../../tests/setup/pipeline'

/**
 * The database's work per message on the hot path, counted, with the budget written here (issue 31): a change that
 * adds a statement to ingest or to the reply fails this test until the budget below is raised in the same commit,
 * with the reason beside it. Throughput is the benches' (bench:pipeline, bench:ingest): on these machines it is too
 * noisy for CI; a count is not.
 *
 * What is counted is every round trip of the app's own connection pool (a statement, or BEGIN / COMMIT of a
 * transaction). pg-boss's own statements (the worker's fetch and completion of its batch of up to
 * REPLY_BATCH_SIZE jobs, one each) go through its own pool and are not counted here. PostgreSQL only: on PGlite, pg-boss and the app share one connection.
 */
const BUDGET = {
  /** A message stored alone (Telegram long polling, a batch's fallback): BEGIN, the conversation, the message, its job, COMMIT. */
  singleInbound: 5,
  /** Ten messages of five conversations stored together by the receivers' batcher: one statement. */
  batchOfTen: 1,
  /** An AI reply: its context (with the prompt and whether there is knowledge), the answer with its run, sent. */
  reply: 3,
  /** The same with knowledge: + the question's words matched to the organization's, + the passages' search. */
  groundedReply: 5,
}

const onPostgres = Boolean(process.env.DATABASE_URL)

/** Counts the round trips of a pool's clients, with their texts (printed when a budget is passed). */
function countRoundTrips(pool: pg.Pool) {
  const texts: string[] = []
  const wrapped = new WeakSet<pg.PoolClient>()
  let counting = false
  pool.on('acquire', (client) => {
    if (wrapped.has(client)) return
    wrapped.add(client)
    const query = client.query.bind(client) as (...args: unknown[]) => unknown
    Object.assign(client, {
      query: (...args: unknown[]) => {
        if (counting) {
          const [first] = args
          const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text
          texts.push((text ?? '?').replace(/\s+/g, ' ').slice(0, 120))
        }
        return query(...args)
      },
    })
  })
  return async (work: () => Promise<unknown>) => {
    texts.length = 0
    counting = true
    try {
      await work()
    } finally {
      counting = false
    }
    return [...texts]
  }
}

describe.runIf(onPostgres)('the statement budget of the hot path (PostgreSQL)', () => {
  let p: Pipeline
  let measure: ReturnType<typeof countRoundTrips>
  let bot: TestBot
  let chats = 910_000

  beforeAll(async () => {
    p = await startPipeline({ worker: false })
    if (!p.handle.pool) throw new Error('the PostgreSQL pool is missing')
    measure = countRoundTrips(p.handle.pool)
    bot = await p.newBot()
  })
  afterAll(async () => {
    await p?.close()
  })

  async function replyToNextJob() {
    const [job] = await p.boss.fetch(REPLY_QUEUE)
    expect(job).toBeDefined()
    // As the worker hands it over: with the signal that aborts it when pg-boss stops.
    const texts = await measure(() =>
      handleReplyJob(p.deps, { ...job, signal: new AbortController().signal }),
    )
    await p.boss.complete(REPLY_QUEUE, job.id)
    return texts
  }

  it('a message stored alone, and its AI reply', async () => {
    const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
    const update = textUpdate(++chats, 'Where is my order?')
    const ingest = await measure(() =>
      receiveTelegramUpdate({ db: p.db, boss: p.boss, channel, body: update }),
    )
    expect(ingest, ingest.join('\n')).toHaveLength(BUDGET.singleInbound)

    const reply = await replyToNextJob()
    expect(reply, reply.join('\n')).toHaveLength(BUDGET.reply)
    expect(p.telegram.sentMessages(bot.token).map((m) => m.text)).toContain('Echo: Where is my order?')
  })

  it('ten messages of five conversations stored by the batcher in one statement', async () => {
    const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
    const batch: NormalizedMessage[] = []
    const first = ++chats
    chats += 5
    for (let i = 0; i < 10; i++) {
      const normalized = normalizeTelegramUpdate(
        channel,
        telegramUpdateSchema.parse(textUpdate(first + (i % 5), `Line ${i}`)),
      )
      if (!normalized) throw new Error('the update did not normalize')
      batch.push(normalized)
    }
    const texts = await measure(() => ingestInboundBatch({ db: p.db, jobs: p.jobs, messages: batch }))
    expect(texts, texts.join('\n')).toHaveLength(BUDGET.batchOfTen)
    // The batch's jobs are left to the next tests' fetches: drained here so that they start from none.
    for (let job = (await p.boss.fetch(REPLY_QUEUE))[0]; job; job = (await p.boss.fetch(REPLY_QUEUE))[0]) {
      await p.boss.complete(REPLY_QUEUE, job.id)
    }
  })

  it('an AI reply grounded in the organization’s knowledge', async () => {
    const grounded = await p.newBot()
    await addTestShop(p.db, grounded.scope.organizationId)
    const channel = await authenticateTelegramWebhook(p.db, grounded.channelId, grounded.secret)
    await receiveTelegramUpdate({
      db: p.db,
      boss: p.boss,
      channel,
      body: textUpdate(++chats, 'How long do I have to return an item?'),
    })
    const reply = await replyToNextJob()
    expect(reply, reply.join('\n')).toHaveLength(BUDGET.groundedReply)
  })
})
