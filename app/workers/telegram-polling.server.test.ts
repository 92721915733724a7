import { eq, inArray } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { channels, telegramPollers } from '~/db/schema'
import { createTelegramClient } from '~/integrations/telegram/bot-api.server'
import { toChannelView } from '~/services/channels/channels.server'
import { deleteChannel } from '~/services/channels/delete-channel.server'
import { setTelegramWebhook } from '~/services/channels/telegram.server'
import { claimTelegramPolling } from '~/services/messages/inbound/telegram-polling.server'
import {
  messagesOf,
  startPipeline,
  textUpdate,
  waitFor,
  waitForSettled,
  type Pipeline,
  type TestBot,
} from '../../tests/setup/pipeline'
import {
  startTelegramPolling,
  type TelegramPolling,
  type TelegramPollingOptions,
} from '~/workers/telegram-polling.server'

// No public URL: the channels are served by long polling. The pipeline's reply worker answers what is stored.
let p: Pipeline
const mine = new Set<string>() // test files share one PostgreSQL database: poll only this file's channels
const running: TelegramPolling[] = []
beforeAll(async () => {
  p = await startPipeline({ publicUrl: 'http://localhost:3000', telegramUpdates: 'polling' })
})
afterEach(async () => {
  await Promise.all(running.splice(0).map((polling) => polling.stop()))
})
afterAll(async () => {
  await p.close()
})

function startPolling(options: TelegramPollingOptions = {}) {
  const polling = startTelegramPolling(
    {
      db: p.db,
      boss: p.boss,
      telegram: createTelegramClient({ apiRoot: p.telegram.apiRoot }),
      encryptionKey: p.deps.encryptionKey,
      logger: p.deps.logger,
    },
    {
      only: (channel) => mine.has(channel.id),
      reconcileMs: 100,
      pollTimeoutSeconds: 2,
      baseDelayMs: 50,
      ...options,
    },
  )
  running.push(polling)
  return polling
}

async function newBot(options?: Parameters<Pipeline['newBot']>[0]) {
  const bot = await p.newBot(options)
  mine.add(bot.channelId)
  return bot
}

const callsOf = (bot: TestBot, method?: string) =>
  p.telegram.calls.filter((call) => call.token === bot.token && (!method || call.method === method))
const answersTo = (bot: TestBot) =>
  waitFor(
    async () => p.telegram.sentMessages(bot.token),
    (sent) => sent.length > 0,
  )

let chats = 700_000

describe('Telegram long polling', () => {
  it('subscribes without a webhook, polls the bot and answers through the reply pipeline', async () => {
    const bot = await newBot({ systemPrompt: 'You are Acme support.' })
    const [row] = await p.db.select().from(channels).where(eq(channels.id, bot.channelId))
    expect(row).toMatchObject({ webhookSubscribed: true, webhookSecretHash: null })
    expect(p.telegram.webhooks.has(bot.token)).toBe(false)
    expect(toChannelView(row, p.channelDeps).webhookUrl).toBeNull()

    const polling = startPolling()
    await waitFor(
      async () => polling.polling(),
      (ids) => ids.includes(bot.channelId),
    )
    const chatId = ++chats
    p.telegram.queueUpdates(bot.token, [textUpdate(chatId, 'Hello from a laptop')])

    const sent = await answersTo(bot)
    expect(sent).toEqual([
      expect.objectContaining({
        chat: expect.objectContaining({ id: chatId }),
        text: 'Echo: Hello from a laptop',
      }),
    ])
    const [inbound] = await waitForSettled(p.db, bot.channelId)
    expect(inbound).toMatchObject({ text: 'Hello from a laptop', senderName: 'Ann Lee', status: 'replied' })
    // Only messages are asked for, and the update is confirmed (Telegram forgets it) by the next poll.
    expect(callsOf(bot, 'getUpdates')[0].params.allowed_updates).toEqual(['message'])
    await waitFor(
      async () => p.telegram.pendingUpdates(bot.token),
      (pending) => pending.length === 0,
    )
  })

  it('stores a redelivered update once and answers it once', async () => {
    const bot = await newBot()
    const update = textUpdate(++chats, 'Only once')
    // The same update three times in one batch; then, as after a worker restart (its offset lost), once more.
    p.telegram.queueUpdates(bot.token, [update, update, update])
    const first = startPolling()
    await answersTo(bot)
    await first.stop()
    p.telegram.queueUpdates(bot.token, [update])
    startPolling()
    await waitFor(
      async () => p.telegram.pendingUpdates(bot.token),
      (pending) => pending.length === 0,
    )

    expect(await messagesOf(p.db, bot.channelId, 'inbound')).toHaveLength(1)
    expect(p.telegram.sentMessages(bot.token)).toHaveLength(1)
  })

  it('removes a webhook left on the bot before polling, which it would otherwise block', async () => {
    const bot = await newBot()
    p.telegram.webhooks.set(bot.token, { url: 'https://old.example.com/hook', secretToken: 'old' })
    const polling = startPolling()
    await waitFor(
      async () => polling.polling(),
      (ids) => ids.includes(bot.channelId),
    )
    p.telegram.queueUpdates(bot.token, [textUpdate(++chats, 'After the webhook')])
    await answersTo(bot)
    expect(p.telegram.webhooks.has(bot.token)).toBe(false)
  })

  it('stops polling a channel when it is deleted, or switched off, and starts again when switched on', async () => {
    const [kept, gone] = [await newBot(), await newBot()]
    const polling = startPolling()
    await waitFor(
      async () => polling.polling(),
      (ids) => ids.includes(kept.channelId) && ids.includes(gone.channelId),
    )

    await setTelegramWebhook(kept.scope, kept.channelId, false, p.channelDeps)
    await deleteChannel(gone.scope, gone.channelId, p.channelDeps)
    await waitFor(
      async () => polling.polling(),
      (ids) => !ids.includes(kept.channelId) && !ids.includes(gone.channelId),
    )
    const leases = await p.db
      .select()
      .from(telegramPollers)
      .where(inArray(telegramPollers.channelId, [kept.channelId, gone.channelId]))
    expect(leases).toEqual([])
    const polls = callsOf(gone, 'getUpdates').length
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(callsOf(gone, 'getUpdates')).toHaveLength(polls)

    await setTelegramWebhook(kept.scope, kept.channelId, true, p.channelDeps)
    await waitFor(
      async () => polling.polling(),
      (ids) => ids.includes(kept.channelId),
    )
    p.telegram.queueUpdates(kept.token, [textUpdate(++chats, 'Back on')])
    expect(await answersTo(kept)).toEqual([expect.objectContaining({ text: 'Echo: Back on' })])
  })

  it('lets one worker poll a bot at a time, and another take over when it stops', async () => {
    const bot = await newBot()
    const [a, b] = [startPolling({ workerId: 'worker-a' }), startPolling({ workerId: 'worker-b' })]
    await waitFor(
      async () => [...a.polling(), ...b.polling()].filter((id) => id === bot.channelId),
      (holders) => holders.length === 1,
    )
    // Several looks later, still one: the other worker cannot claim the lease while it is held.
    await Promise.all([a.reconcile(), b.reconcile(), a.reconcile(), b.reconcile()])
    const [leader, follower] = a.polling().includes(bot.channelId) ? [a, b] : [b, a]
    expect(follower.polling()).not.toContain(bot.channelId)
    p.telegram.queueUpdates(bot.token, [textUpdate(++chats, 'First')])
    await answersTo(bot)

    await leader.stop()
    await waitFor(
      async () => follower.polling(),
      (ids) => ids.includes(bot.channelId),
    )
    p.telegram.queueUpdates(bot.token, [textUpdate(++chats, 'Second')])
    const sent = await waitFor(
      async () => p.telegram.sentMessages(bot.token),
      (messages) => messages.length === 2,
    )
    expect(sent.map((m) => m.text)).toEqual(['Echo: First', 'Echo: Second'])
    expect(p.telegram.conflicts(bot.token)).toBe(0)
  })

  it('does not claim a lease another live worker holds, and takes one that lapsed', async () => {
    const bot = await newBot()
    const lease = { channelId: bot.channelId, leaseSeconds: 60 }
    expect(await claimTelegramPolling(p.db, { ...lease, workerId: 'holder' })).toEqual([])
    expect(await claimTelegramPolling(p.db, { ...lease, workerId: 'other' })).toBeNull()
    expect(await claimTelegramPolling(p.db, { ...lease, workerId: 'holder' })).toEqual([])
    await p.db
      .update(telegramPollers)
      .set({ leaseExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(telegramPollers.channelId, bot.channelId))
    expect(await claimTelegramPolling(p.db, { ...lease, workerId: 'other' })).toEqual([])
  })

  it("waits Telegram's retry_after on 429, then polls again", async () => {
    const bot = await newBot()
    p.telegram.enqueue('getUpdates', { token: bot.token, status: 429, retryAfter: 1 })
    p.telegram.queueUpdates(bot.token, [textUpdate(++chats, 'Patience')])
    const started = Date.now()
    startPolling()
    await answersTo(bot)
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
  })

  it('puts the channel in error and stops when Telegram refuses the token', async () => {
    const bot = await newBot()
    p.telegram.enqueue('getUpdates', { token: bot.token, status: 401, description: 'Unauthorized' })
    const polling = startPolling()
    const [row] = await waitFor(
      () => p.db.select().from(channels).where(eq(channels.id, bot.channelId)),
      ([channel]) => channel.status === 'error',
    )
    expect(row.statusReason).toBe('Bot token is invalid or expired')
    await waitFor(
      async () => polling.polling(),
      (ids) => !ids.includes(bot.channelId),
    )
    const polls = callsOf(bot, 'getUpdates').length
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(callsOf(bot, 'getUpdates')).toHaveLength(polls)
  })

  it('stops at once in the middle of a long poll, giving its leases up', async () => {
    const bot = await newBot()
    const polling = startPolling({ pollTimeoutSeconds: 30 })
    await waitFor(
      async () => callsOf(bot, 'getUpdates').length,
      (count) => count > 0,
    )
    const started = Date.now()
    await polling.stop()
    expect(Date.now() - started).toBeLessThan(1000)
    expect(polling.polling()).toEqual([])
    const leases = await p.db
      .select()
      .from(telegramPollers)
      .where(eq(telegramPollers.channelId, bot.channelId))
    expect(leases).toEqual([])
  })
})
