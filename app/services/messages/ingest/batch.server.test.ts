import { randomUUID } from 'node:crypto'
import { and, eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversations, conversationWords, messages } from '~/db/schema'
import { messagesOf, startPipeline, type Pipeline, type TestBot } from '../../../../tests/setup/pipeline'
import { createIngestBatcher, ingestInboundBatch } from './batch.server'
import { ingestInbound, type NormalizedMessage } from './ingest.server'
import { REPLY_QUEUE } from './reply-queue.server'

let p: Pipeline
beforeAll(async () => {
  p = await startPipeline({ worker: false })
})
afterAll(async () => {
  await p.close()
})

let ids = 0
function inbound(bot: TestBot, chatId: number, text: string, answerable = true): NormalizedMessage {
  return {
    organizationId: bot.scope.organizationId,
    channelId: bot.channelId,
    platformChatId: String(chatId),
    platformMessageId: `${chatId}:${++ids}`,
    senderId: String(chatId),
    senderName: 'Ann',
    text,
    kind: 'text' as const,
    answerable,
    platformSentAt: new Date(),
  }
}

async function jobsOf(messageIds: string[]) {
  const jobs = await p.boss.findJobs(REPLY_QUEUE)
  return jobs
    .filter((job) => messageIds.includes((job.data as { messageId: string }).messageId))
    .sort((a, b) => (a.id < b.id ? -1 : 1))
}

/** Each of a channel's conversations' language, by chat. */
const conversationLanguagesOf = (channelId: string) =>
  p.db
    .select({ chat: conversations.platformChatId, language: conversations.language })
    .from(conversations)
    .where(eq(conversations.channelId, channelId))
    .orderBy(conversations.platformChatId)

describe('ingestInboundBatch', () => {
  it('keeps each text’s language and the conversation’s latest sure one (a word that tells nothing keeps it)', async () => {
    const bot = await p.newBot({ agent: false })
    await ingestInboundBatch({
      db: p.db,
      jobs: p.jobs,
      messages: [inbound(bot, 31, 'Olá, vocês entregam no sábado?'), inbound(bot, 32, 'Where is my parcel?')],
    })
    await ingestInboundBatch({ db: p.db, jobs: p.jobs, messages: [inbound(bot, 31, 'ok')] })
    const stored = await messagesOf(p.db, bot.channelId, 'inbound')
    expect(stored.map((m) => [m.text, m.language])).toEqual([
      ['Olá, vocês entregam no sábado?', 'pt'],
      ['Where is my parcel?', 'en'],
      ['ok', null],
    ])
    expect(await conversationLanguagesOf(bot.channelId)).toEqual([
      { chat: '31', language: 'pt' },
      { chat: '32', language: 'en' },
    ])
  })

  it('names a conversation’s language by a greeting or thanks alone only while it has none, in a batch too', async () => {
    const bot = await p.newBot({ agent: false })
    const ingest = (...batch: NormalizedMessage[]) =>
      ingestInboundBatch({ db: p.db, jobs: p.jobs, messages: batch })
    await ingest(inbound(bot, 43, 'Where is my parcel?'))
    await ingest(
      inbound(bot, 41, '¿Cuánto cuesta el envío a Valencia?'),
      inbound(bot, 41, 'Thanks'),
      inbound(bot, 42, 'Hola'),
      inbound(bot, 42, 'Thanks'),
      inbound(bot, 43, 'Hola'),
    )
    await ingest(inbound(bot, 41, 'Thank you'))
    expect(await conversationLanguagesOf(bot.channelId)).toEqual([
      { chat: '41', language: 'es' },
      { chat: '42', language: 'es' },
      { chat: '43', language: 'en' },
    ])
  })

  it('stores a batch in one go, in arrival order, each answerable message with its job in that order', async () => {
    const bot = await p.newBot({ agent: false })
    const batch = [
      inbound(bot, 11, 'one'),
      inbound(bot, 22, 'two'),
      inbound(bot, 11, 'three'),
      inbound(bot, 11, 'a photo', false),
    ]
    const results = await ingestInboundBatch({ db: p.db, jobs: p.jobs, messages: batch })
    expect(results.map((r) => r.stored)).toEqual([true, true, true, true])

    const stored = await messagesOf(p.db, bot.channelId, 'inbound')
    expect(stored.map((m) => [m.text, m.status])).toEqual([
      ['one', 'queued'],
      ['two', 'queued'],
      ['three', 'queued'],
      ['a photo', 'ignored'],
    ])
    expect(stored.map((m) => m.id)).toEqual(results.map((r) => r.messageId))
    expect(stored[0]).toMatchObject({
      organizationId: bot.scope.organizationId,
      direction: 'inbound',
      platformMessageId: batch[0].platformMessageId,
      senderId: '11',
      senderName: 'Ann',
      platformSentAt: batch[0].platformSentAt,
    })
    expect(stored[0].receivedAt).toBeInstanceOf(Date)
    const byChat = new Map(stored.map((m) => [m.text, m.conversationId]))
    expect(byChat.get('one')).toBe(byChat.get('three'))
    expect(byChat.get('one')).not.toBe(byChat.get('two'))

    // One job per answerable message, ids growing in arrival order, keyed by conversation.
    const jobs = await jobsOf(stored.map((m) => m.id))
    expect(jobs.map((j) => (j.data as { messageId: string }).messageId)).toEqual(
      stored.slice(0, 3).map((m) => m.id),
    )
    expect(jobs.map((j) => j.singletonKey)).toEqual([
      byChat.get('one'),
      byChat.get('two'),
      byChat.get('three'),
    ])
  })

  it('drops a message already stored, and a second copy within the batch, with no job for either', async () => {
    const bot = await p.newBot({ agent: false })
    const first = inbound(bot, 33, 'first')
    await ingestInboundBatch({ db: p.db, jobs: p.jobs, messages: [first] })
    const fresh = inbound(bot, 33, 'fresh')
    const results = await ingestInboundBatch({
      db: p.db,
      jobs: p.jobs,
      messages: [first, fresh, { ...fresh }],
    })
    expect(results.map((r) => r.stored)).toEqual([false, true, false])
    const stored = await messagesOf(p.db, bot.channelId, 'inbound')
    expect(stored.map((m) => m.text)).toEqual(['first', 'fresh'])
    expect(await jobsOf(stored.map((m) => m.id))).toHaveLength(2)
  })
  it("writes its conversations' summary in its upsert, as the trigger does for other inserts, and their words", async () => {
    const bot = await p.newBot({ agent: false })
    const summary = async (chatId: number) => {
      const [row] = await p.db
        .select({
          id: conversations.id,
          text: conversations.lastMessageText,
          direction: conversations.lastMessageDirection,
          at: conversations.lastMessageAt,
          inboundAt: conversations.lastInboundAt,
          customer: conversations.customerName,
          words: sql<string>`(select string_agg(w.word, ' ' order by w.word) from ${conversationWords} w
            where w.conversation_id = ${conversations.id})`,
        })
        .from(conversations)
        .where(
          and(eq(conversations.channelId, bot.channelId), eq(conversations.platformChatId, String(chatId))),
        )
      return row
    }
    const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, seconds))
    const hello = { ...inbound(bot, 44, 'Hello there'), platformSentAt: at(1) }
    const parcel = { ...inbound(bot, 44, 'Where is my parcel?'), senderName: 'Ann B', platformSentAt: at(2) }
    const photo = { ...inbound(bot, 55, 'a photo', false), senderName: null, platformSentAt: at(3) }
    await ingestInboundBatch({ db: p.db, jobs: p.jobs, messages: [hello, parcel, photo] })

    const stored = await messagesOf(p.db, bot.channelId, 'inbound')
    const after = await summary(44)
    expect(after).toMatchObject({
      text: 'Where is my parcel?',
      direction: 'inbound',
      at: stored[1].createdAt,
      inboundAt: at(2),
      customer: 'Ann B',
    })
    expect(after.words.split(' ').sort()).toEqual(['hello', 'is', 'my', 'parcel', 'there', 'where'])
    expect(await summary(55)).toMatchObject({
      text: 'a photo',
      inboundAt: at(3),
      customer: null,
      words: 'a photo',
    })

    // A redelivery (alone, or beside a new message without a name) changes nothing but what the new one brings.
    await ingestInboundBatch({ db: p.db, jobs: p.jobs, messages: [hello] })
    expect(await summary(44)).toEqual(after)
    const thanks = { ...inbound(bot, 44, 'Thanks'), senderName: null, platformSentAt: at(4) }
    await ingestInboundBatch({ db: p.db, jobs: p.jobs, messages: [thanks, parcel] })
    expect(await summary(44)).toMatchObject({ text: 'Thanks', inboundAt: at(4), customer: 'Ann B' })
    expect((await summary(44)).words.split(' ')).toContain('thanks')

    // The one-message path leaves the summary to the trigger: the same columns, the same way.
    const single = { ...inbound(bot, 44, 'One more, please'), senderName: 'Ann C', platformSentAt: at(5) }
    await ingestInbound({ db: p.db, boss: p.boss, message: single })
    const last = (await messagesOf(p.db, bot.channelId, 'inbound')).at(-1)
    expect(await summary(44)).toMatchObject({
      text: 'One more, please',
      at: last?.createdAt,
      inboundAt: at(5),
      customer: 'Ann C',
    })
    expect((await summary(44)).words.split(' ')).toEqual(
      expect.arrayContaining(['hello', 'thanks', 'please']),
    )
  })
})

describe('createIngestBatcher', () => {
  it('serves concurrent messages with fewer statements than messages, each caller getting its own result', async () => {
    const bot = await p.newBot({ agent: false })
    const ingest = createIngestBatcher({ db: p.db, boss: p.boss, jobs: p.jobs })
    const batch = Array.from({ length: 40 }, (_, i) => inbound(bot, 100 + (i % 4), `message ${i}`))
    const results = await Promise.all([...batch, batch[5]].map((m) => ingest(m)))
    expect(results.filter((r) => r.stored)).toHaveLength(40)
    expect(results.at(-1)).toEqual({ stored: false }) // the redelivered copy

    // Within each conversation, stored (and enqueued) in the order the messages arrived.
    const stored = await messagesOf(p.db, bot.channelId, 'inbound')
    // A statement's rows share its clock (now()): fewer distinct times than messages means fewer statements.
    const statements = new Set(stored.map((m) => m.receivedAt?.getTime())).size
    expect(statements).toBeGreaterThan(0)
    expect(statements).toBeLessThan(40)
    for (let chat = 100; chat < 104; chat++) {
      const texts = stored.filter((m) => m.senderId === String(chat))
      expect(texts.map((m) => Number(m.text.split(' ')[1]))).toEqual(
        batch.flatMap((m, i) => (m.platformChatId === String(chat) ? [i] : [])),
      )
    }
    expect(await jobsOf(stored.map((m) => m.id))).toHaveLength(40)
  })

  it('when a batch fails, stores each message alone: one bad message fails only its own caller', async () => {
    const bot = await p.newBot({ agent: false })
    const failures: number[] = []
    const ingest = createIngestBatcher({
      db: p.db,
      boss: p.boss,
      jobs: p.jobs,
      onBatchFailure: (_error, size) => failures.push(size),
    })
    const good = [inbound(bot, 201, 'kept 1'), inbound(bot, 202, 'kept 2')]
    // A channel that does not exist: its row breaks the batch's foreign key.
    const bad = { ...inbound(bot, 203, 'orphan'), channelId: randomUUID() }
    const settled = await Promise.allSettled([good[0], bad, good[1]].map((m) => ingest(m)))
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(failures).toEqual([3]) // the batch of three failed once, then each message went alone
    const stored = await p.db
      .select({ text: messages.text })
      .from(messages)
      .where(inArray(messages.channelId, [bot.channelId, bad.channelId]))
    expect(stored.map((m) => m.text).sort()).toEqual(['kept 1', 'kept 2'])
  })
})
