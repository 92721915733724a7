import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversations, messages } from '~/db/schema'
import { messagesOf, startPipeline, textUpdate, type Pipeline } from '../../../../tests/setup/pipeline'
import { telegramUpdateSchema } from '~/integrations/telegram/update.server'
import { normalizeTelegramUpdate } from '~/services/messages/inbound/telegram.server'
import { ingestInbound, type NormalizedMessage } from './ingest.server'
import { nextJobId, REPLY_QUEUE } from './reply-queue.server'

let p: Pipeline
beforeAll(async () => {
  p = await startPipeline({ worker: false })
})
afterAll(async () => {
  await p.close()
})

const channel = {
  id: '00000000-0000-4000-8000-000000000001',
  organizationId: '00000000-0000-4000-8000-000000000002',
}
const parse = (body: unknown) => telegramUpdateSchema.parse(body)

describe('normalizeTelegramUpdate', () => {
  it('reads a text message: chat, sender, scoped message id, time', () => {
    const update = textUpdate(42, 'Hi!', 7)
    expect(normalizeTelegramUpdate(channel, parse(update))).toEqual({
      organizationId: channel.organizationId,
      channelId: channel.id,
      platformChatId: '42',
      platformMessageId: '42:7',
      senderId: '42',
      senderName: 'Ann Lee',
      senderHandle: '@ann',
      senderLanguage: null,
      text: 'Hi!',
      kind: 'text' as const,
      answerable: true,
      platformSentAt: new Date(update.message.date * 1000),
    } satisfies NormalizedMessage)
  })

  it("reads the customer's handle and language in a private chat only, and drops a language that is none", () => {
    const update = textUpdate(42, 'Olá')
    const from = (extra: object) => ({
      ...update,
      message: { ...update.message, from: { ...update.message.from, ...extra } },
    })
    expect(normalizeTelegramUpdate(channel, parse(from({ language_code: 'pt-BR' })))).toMatchObject({
      senderHandle: '@ann',
      senderLanguage: 'pt-br',
    })
    expect(normalizeTelegramUpdate(channel, parse(from({ language_code: 'x"><script>' })))).toMatchObject({
      senderLanguage: null,
    })
    const group = {
      ...update,
      message: { ...from({ language_code: 'es' }).message, chat: { id: -5, type: 'group' } },
    }
    expect(normalizeTelegramUpdate(channel, parse(group))).toMatchObject({
      senderName: 'Ann Lee',
      senderHandle: null,
      senderLanguage: null,
    })
  })

  it('keeps a message without text with its kind, label and caption, queued for the agent; drops bots and other update kinds', () => {
    const update = textUpdate(42, '')
    const photo = { ...update, message: { ...update.message, text: undefined, caption: 'look', photo: [] } }
    expect(normalizeTelegramUpdate(channel, parse(photo))).toMatchObject({
      text: '[photo] look',
      kind: 'photo',
      answerable: true,
    })
    const sticker = { ...update, message: { ...update.message, text: undefined, sticker: {} } }
    expect(normalizeTelegramUpdate(channel, parse(sticker))).toMatchObject({
      text: '[sticker]',
      kind: 'sticker',
    })
    const voice = { ...update, message: { ...update.message, text: undefined, voice: { duration: 3 } } }
    expect(normalizeTelegramUpdate(channel, parse(voice))).toMatchObject({
      text: '[voice note]',
      kind: 'voice',
    })
    const blank = { ...update, message: { ...update.message, text: '  \n ' } }
    expect(normalizeTelegramUpdate(channel, parse(blank))).toMatchObject({ text: '[message]', kind: 'other' })

    const fromBot = {
      ...update,
      message: { ...update.message, from: { id: 1, is_bot: true, first_name: 'B' } },
    }
    expect(normalizeTelegramUpdate(channel, parse(fromBot))).toBeUndefined()
    const edited = { update_id: 9, edited_message: update.message }
    expect(normalizeTelegramUpdate(channel, parse(edited))).toBeUndefined()
  })

  it('refuses what is not an update', () => {
    for (const body of [null, [], {}, { update_id: 'x' }, { update_id: 1, message: { message_id: 1 } }]) {
      expect(telegramUpdateSchema.safeParse(body).success).toBe(false)
    }
  })
})

describe('ingestInbound', () => {
  let chat = 900_000
  async function normalized(text = 'Hello') {
    const bot = await p.newBot()
    const message = normalizeTelegramUpdate(
      { id: bot.channelId, organizationId: bot.scope.organizationId },
      parse(textUpdate(++chat, text)),
    )
    if (!message) throw new Error('not a message')
    return { bot, message }
  }
  const jobsFor = (messageId: string) => p.boss.findJobs(REPLY_QUEUE, { data: { messageId } })

  it('stores the message and its conversation, and enqueues one reply job keyed by the conversation', async () => {
    const { bot, message } = await normalized()
    const result = await ingestInbound({ db: p.db, boss: p.boss, message })
    expect(result).toEqual({ stored: true, messageId: expect.any(String) })
    const [stored] = await messagesOf(p.db, bot.channelId)
    expect(stored).toMatchObject({
      direction: 'inbound',
      status: 'queued',
      text: 'Hello',
      senderName: 'Ann Lee',
      platformMessageId: message.platformMessageId,
    })
    const [conversation] = await p.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, stored.conversationId))
    expect(conversation).toMatchObject({ channelId: bot.channelId, platformChatId: message.platformChatId })
    const jobs = await jobsFor(stored.id)
    expect(jobs).toEqual([expect.objectContaining({ singletonKey: conversation.id, state: 'created' })])
  })

  it('drops redeliveries, one after another and all at once: one message, one job', async () => {
    const { bot, message } = await normalized()
    const sequential = []
    for (let i = 0; i < 3; i++)
      sequential.push((await ingestInbound({ db: p.db, boss: p.boss, message })).stored)
    expect(sequential).toEqual([true, false, false])

    const other = await normalized()
    const concurrent = await Promise.all(
      [1, 2, 3].map(() => ingestInbound({ db: p.db, boss: p.boss, message: other.message })),
    )
    expect(concurrent.filter((r) => r.stored)).toHaveLength(1)

    for (const b of [bot, other.bot]) {
      const rows = await messagesOf(p.db, b.channelId)
      expect(rows).toHaveLength(1)
      expect(await jobsFor(rows[0].id)).toHaveLength(1)
    }
  })

  it('one conversation per chat: a second message joins the first one', async () => {
    const { bot, message } = await normalized()
    await ingestInbound({ db: p.db, boss: p.boss, message })
    await ingestInbound({
      db: p.db,
      boss: p.boss,
      message: { ...message, platformMessageId: `${message.platformChatId}:99999`, text: 'again' },
    })
    const rows = await messagesOf(p.db, bot.channelId)
    expect(rows.map((r) => r.text)).toEqual(['Hello', 'again'])
    expect(new Set(rows.map((r) => r.conversationId)).size).toBe(1)
    expect(rows[1].sequence).toBeGreaterThan(rows[0].sequence)
  })

  it('a greeting or thanks alone names the conversation’s language only while it has none', async () => {
    const { bot, message } = await normalized('Hola')
    const send = (text: string, n: number) =>
      ingestInbound({
        db: p.db,
        boss: p.boss,
        message: { ...message, platformMessageId: `${message.platformChatId}:${n}`, text },
      })
    const language = async () =>
      (
        await p.db
          .select({ language: conversations.language })
          .from(conversations)
          .where(eq(conversations.channelId, bot.channelId))
      ).map((row) => row.language)
    await ingestInbound({ db: p.db, boss: p.boss, message })
    expect(await language()).toEqual(['es'])
    await send('Thanks', 1)
    expect(await language()).toEqual(['es'])
    await send('Where is my parcel?', 2)
    expect(await language()).toEqual(['en'])
    // Each message keeps the language its own words told.
    expect((await messagesOf(p.db, bot.channelId)).map((row) => row.language)).toEqual(['es', 'en', 'en'])
  })

  it('stores a message not for the agent (a reaction) as ignored, with no job', async () => {
    const { bot, message } = await normalized()
    await ingestInbound({ db: p.db, boss: p.boss, message: { ...message, answerable: false } })
    const [row] = await messagesOf(p.db, bot.channelId)
    expect(row.status).toBe('ignored')
    expect(await jobsFor(row.id)).toEqual([])
  })

  it('stores nothing when the job cannot be enqueued: one transaction', async () => {
    const { bot, message } = await normalized()
    const failing = {
      send: async () => {
        throw new Error('queue down')
      },
    }
    await expect(ingestInbound({ db: p.db, boss: failing, message })).rejects.toThrow('queue down')
    expect(await messagesOf(p.db, bot.channelId)).toEqual([])
    const left = await p.db.select().from(conversations).where(eq(conversations.channelId, bot.channelId))
    expect(left).toEqual([])
    expect(await p.db.select().from(messages).where(eq(messages.channelId, bot.channelId))).toEqual([])
  })
})

describe('nextJobId', () => {
  it('is a version 7 UUID that grows, also within one millisecond', () => {
    const now = Date.now() + 10_000
    const ids = Array.from({ length: 2000 }, () => nextJobId(now))
    expect(
      ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)),
    ).toBe(true)
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
    // The random part is fresh for every id (drawn from a pool refilled as it runs out).
    expect(new Set(ids.map((id) => id.slice(24))).size).toBe(ids.length)
    expect(nextJobId(now + 5000) > ids[ids.length - 1]).toBe(true)
  })
})
