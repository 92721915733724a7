import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { channels } from '~/db/schema'
import { startPipeline, type Pipeline } from '../../../../tests/setup/pipeline'
import { createWebhookChannels } from './channels.server'

let p: Pipeline
beforeAll(async () => {
  p = await startPipeline({ worker: false })
})
afterAll(async () => {
  await p.close()
})

describe('createWebhookChannels', () => {
  it('answers many concurrent lookups, each with its own channel, and nothing for unknown keys', async () => {
    const lookup = createWebhookChannels(p.db)
    const bots = await Promise.all([p.newBot({ agent: false }), p.newBot({ agent: false })])
    const page = await p.newMetaChannel('facebook', { agent: false })
    const calls = Array.from({ length: 300 }, (_, i) => bots[i % 2].channelId)
    const found = await Promise.all([
      ...calls.map((id) => lookup.byId(id)),
      lookup.byId(randomUUID()),
      lookup.byId('not-a-uuid'),
      lookup.byPlatformId('facebook', page.platformChannelId),
      lookup.byPlatformId('whatsapp', page.platformChannelId),
    ])
    expect(found.slice(0, 300).map((c) => c?.id)).toEqual(calls)
    expect(found.slice(300, 302)).toEqual([undefined, undefined])
    expect(found[302]?.id).toBe(page.channelId)
    expect(found[303]).toBeUndefined()
  })

  it('reads fresh for each delivery: a channel deleted a moment ago is not found by the next lookup', async () => {
    const lookup = createWebhookChannels(p.db)
    const bot = await p.newBot({ agent: false })
    expect((await lookup.byId(bot.channelId))?.id).toBe(bot.channelId)
    await p.db.delete(channels).where(eq(channels.id, bot.channelId))
    expect(await lookup.byId(bot.channelId)).toBeUndefined()
  })
})
