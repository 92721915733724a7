import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversations, messageMedia, organizations } from '~/db/schema'
import { BEHAVIOUR_TEXTS } from '~/lib/agents/behaviour'
import { MEDIA_FAILURES, MEDIA_MAX_BYTES } from '~/lib/conversations/media'
import { REPLY_FAILURES } from '~/lib/conversations/reply-pipeline'
import {
  authenticateTelegramWebhook,
  receiveTelegramUpdate,
} from '~/services/messages/inbound/telegram.server'
import { makePdf } from '../../../../tests/fakes/documents'
import { photo } from '../../../../tests/fakes/photo'
import { sha256Of, voiceNote } from '../../../../tests/fakes/voice-note'
import { PHOTO_INSTRUCTIONS } from '~/integrations/llm/vision.server'
import {
  documentUpdate,
  messagesOf,
  photoUpdate,
  startPipeline,
  textUpdate,
  voiceUpdate,
  waitForSettled,
  META_TEST_APP,
  type Pipeline,
  type TestBot,
  type TestMetaChannel,
} from '../../../../tests/setup/pipeline'
import { messengerDelivery, wabaDelivery, whatsappChange } from '../../../../tests/fixtures/meta/deliveries'
import { receiveMetaWebhook } from '~/services/messages/inbound/meta.server'
import { getConversation } from '~/services/conversations/inbox.server'
import { getMessageFile } from '~/services/conversations/media.server'
import { deleteExpiredMedia } from '~/services/conversations/media-retention.server'
import { replyToMessage } from './reply.server'

// Voice notes read before the answer (issue 37, ADR 074): through the reply worker, the Telegram fake's getFile and
// file download, and the model fake's /audio/transcriptions, over HTTP.
let p: Pipeline
beforeAll(async () => {
  p = await startPipeline({ media: true })
})
afterAll(async () => {
  await p.close()
})

let chats = 900_000
async function receive(bot: TestBot, update: Record<string, unknown>) {
  const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
  await receiveTelegramUpdate({ db: p.db, boss: p.boss, channel, body: update })
}

/** A clip the transcription fake knows, sent to the bot's files. */
function knownClip(bot: TestBot, label: string, transcript: string) {
  const clip = voiceNote(label)
  p.model.addTranscript(sha256Of(clip), transcript)
  return { clip, file: p.telegram.addFile(bot.token, clip) }
}

const promptsWith = (text: string) =>
  p.model.requests.filter(
    (r) => r.path.endsWith('/chat/completions') && JSON.stringify(r.body).includes(text),
  )
function userTurns(index: number, text: string) {
  const { messages } = promptsWith(text)[index].body
  return messages.filter((m) => m.role === 'user').map((m) => String(m.content))
}
const sentTexts = (bot: TestBot) => p.telegram.sentMessages(bot.token).map((m) => m.text)
const downloads = (bot: TestBot) =>
  p.telegram.calls.filter((c) => c.token === bot.token && c.method === 'file')
const conversationOf = async (id: string) =>
  (await p.db.select().from(conversations).where(eq(conversations.id, id)))[0]
const storedMedia = (messageId: string) =>
  p.db.select().from(messageMedia).where(eq(messageMedia.messageId, messageId))

describe('a Telegram voice note', () => {
  it('is downloaded, stored once, transcribed, and answered once from its transcript, in its language', async () => {
    const bot = await p.newBot()
    const chatId = ++chats
    const said = `Hola, quiero saber si tienen la chaqueta azul en talla mediana ${chatId}`
    const { clip, file } = knownClip(bot, `one-${chatId}`, said)
    await receive(bot, voiceUpdate(chatId, file))
    await waitForSettled(p.db, bot.channelId)

    const [inbound, answer] = await messagesOf(p.db, bot.channelId)
    expect(inbound).toMatchObject({ kind: 'voice', text: said, status: 'replied', language: 'es' })
    expect(inbound.media).toMatchObject({ source: 'telegram', ref: file.file_id, state: 'read' })
    expect(answer).toMatchObject({ direction: 'outbound', status: 'sent', text: `Echo: ${said}` })
    expect(sentTexts(bot)).toEqual([`Echo: ${said}`])
    expect(userTurns(0, said)).toEqual([said])
    // The prompt asks for the customer's language, as for a text.
    expect(JSON.stringify(promptsWith(said)[0].body)).toContain('Spanish')

    const [stored] = await storedMedia(inbound.id)
    expect(stored).toMatchObject({ contentType: 'audio/ogg', byteSize: clip.byteLength })
    expect(Buffer.from(stored.bytes).equals(clip)).toBe(true)
    expect(downloads(bot)).toHaveLength(1)
    const asked = p.model.transcriptions.filter((t) => t.sha256 === sha256Of(clip))
    expect(asked).toEqual([
      expect.objectContaining({ model: 'whisper-1', contentType: 'audio/ogg', responseFormat: 'json' }),
    ])
    expect(asked[0].authorization).toBe('Bearer sk-test')
    expect((await conversationOf(inbound.conversationId)).language).toBe('es')
  })

  it('a transcript of thanks alone keeps the conversation’s language, as a text of thanks does', async () => {
    const bot = await p.newBot()
    const chatId = ++chats
    await receive(bot, textUpdate(chatId, `¿Tienen la chaqueta azul en talla mediana? ${chatId}`))
    await waitForSettled(p.db, bot.channelId)
    const { file } = knownClip(bot, `thanks-${chatId}`, 'Thanks')
    await receive(bot, voiceUpdate(chatId, file))
    await waitForSettled(p.db, bot.channelId)

    const voice = (await messagesOf(p.db, bot.channelId)).find((m) => m.kind === 'voice')
    expect(voice).toMatchObject({
      text: 'Thanks',
      language: 'en',
      media: expect.objectContaining({ state: 'read' }),
    })
    expect((await conversationOf(voice!.conversationId)).language).toBe('es')
  })

  it('shows the customer "typing..." while a slow transcription runs', async () => {
    const bot = await p.newBot()
    const chatId = ++chats
    const { file } = knownClip(bot, `slow-${chatId}`, `Are you open on Sunday ${chatId}?`)
    p.model.enqueueTranscription({ delayMs: 900 })
    await receive(bot, voiceUpdate(chatId, file))
    await waitForSettled(p.db, bot.channelId)
    const calls = p.telegram.calls.filter((c) => c.token === bot.token).map((c) => c.method)
    expect(calls.indexOf('sendChatAction')).toBeGreaterThan(calls.indexOf('getFile'))
    expect(calls.indexOf('sendChatAction')).toBeLessThan(calls.indexOf('sendMessage'))
  })

  it('keeps its caption after the transcript', async () => {
    const bot = await p.newBot()
    const chatId = ++chats
    const { file } = knownClip(bot, `caption-${chatId}`, `Where is my parcel ${chatId}?`)
    await receive(bot, voiceUpdate(chatId, file, 'order 5521'))
    await waitForSettled(p.db, bot.channelId)
    const [inbound] = await messagesOf(p.db, bot.channelId, 'inbound')
    expect(inbound.text).toBe(`Where is my parcel ${chatId}?\norder 5521`)
  })

  it('in a burst with a text: one answer that reads both, in the order they were sent', async () => {
    const bot = await p.newBot({ behaviour: { burstWaitSeconds: 1 } })
    const chatId = ++chats
    const said = `My order has not arrived ${chatId}`
    const { file } = knownClip(bot, `burst-${chatId}`, said)
    await receive(bot, voiceUpdate(chatId, file))
    await receive(bot, textUpdate(chatId, 'it was the blue jacket'))
    await waitForSettled(p.db, bot.channelId)
    await new Promise((resolve) => setTimeout(resolve, 300)) // a second answer would show by now

    expect(promptsWith(said)).toHaveLength(1)
    expect(userTurns(0, said)).toEqual([`${said}\nit was the blue jacket`])
    expect(sentTexts(bot)).toEqual([`Echo: ${said}\nit was the blue jacket`])
    const rows = await messagesOf(p.db, bot.channelId)
    expect(rows.map((m) => [m.direction, m.status])).toEqual([
      ['inbound', 'replied'],
      ['inbound', 'replied'],
      ['outbound', 'sent'],
    ])
  })

  it('a worker that died between the download and the transcription: the next run answers once, the file fetched and stored once', async () => {
    // A wait of 30 s keeps the worker off this message: the runs are made by hand.
    const bot = await p.newBot({ behaviour: { burstWaitSeconds: 30 } })
    const chatId = ++chats
    const said = `Can I change my delivery address ${chatId}`
    const { clip, file } = knownClip(bot, `killed-${chatId}`, said)
    await receive(bot, voiceUpdate(chatId, file))
    const [inbound] = await messagesOf(p.db, bot.channelId, 'inbound')
    const media = p.deps.media!
    const dying = {
      ...p.deps,
      media: {
        ...media,
        transcriber: {
          model: 'whisper-1',
          transcribe: () => Promise.reject(new Error('the worker died here')),
        },
      },
    }
    await expect(replyToMessage(dying, inbound.id)).rejects.toThrow('the worker died here')
    expect(await storedMedia(inbound.id)).toHaveLength(1)
    expect((await messagesOf(p.db, bot.channelId, 'inbound'))[0]).toMatchObject({ status: 'queued' })

    expect(await replyToMessage(p.deps, inbound.id)).toMatchObject({ outcome: 'replied', sentNow: true })
    expect(await replyToMessage(p.deps, inbound.id)).toMatchObject({ outcome: 'skipped' })
    expect(sentTexts(bot)).toEqual([`Echo: ${said}`])
    expect(downloads(bot)).toHaveLength(1)
    expect(await storedMedia(inbound.id)).toHaveLength(1)
    expect(p.model.transcriptions.filter((t) => t.sha256 === sha256Of(clip))).toHaveLength(1)
  })
})

describe('a Telegram photo', () => {
  it('is shown to the vision model as an image part with its caption, and answered once from what it shows', async () => {
    const bot = await p.newBot()
    const chatId = ++chats
    const picture = photo([30, 30, 200])
    const file = p.telegram.addFile(bot.token, picture)
    const seen = `A blue phone case with a crack across the back ${chatId}.`
    p.model.enqueue({ match: PHOTO_INSTRUCTIONS.slice(0, 40), reply: seen })
    await receive(bot, photoUpdate(chatId, file, 'is this covered by the warranty?'))
    await waitForSettled(p.db, bot.channelId)

    const looked = p.model.requests.filter((r) =>
      JSON.stringify(r.body).includes(PHOTO_INSTRUCTIONS.slice(0, 40)),
    )
    expect(looked).toHaveLength(1)
    expect(looked[0].body.model).toBe('gpt-4o-mini')
    const parts = looked[0].body.messages[0].content as {
      type: string
      text?: string
      image_url?: { url: string }
    }[]
    expect(parts.find((part) => part.type === 'text')?.text).toContain(
      "The customer's caption: is this covered by the warranty?",
    )
    expect(parts.find((part) => part.type === 'image_url')?.image_url?.url).toBe(
      `data:image/png;base64,${picture.toString('base64')}`,
    )

    const text = `is this covered by the warranty?\n[Photo: ${seen}]`
    const [inbound, answer] = await messagesOf(p.db, bot.channelId)
    expect(inbound).toMatchObject({ kind: 'photo', text, status: 'replied' })
    expect(inbound.media).toMatchObject({ state: 'read', ref: file.file_id })
    expect(answer).toMatchObject({ direction: 'outbound', text: `Echo: ${text}` })
    expect(userTurns(0, seen).at(-1)).toBe(text)
    expect(await storedMedia(inbound.id)).toEqual([
      expect.objectContaining({ contentType: 'image/png', byteSize: picture.byteLength }),
    ])
  })

  it('a file that is not a picture: not shown to the model, the fallback sent', async () => {
    const bot = await p.newBot()
    const file = p.telegram.addFile(bot.token, voiceNote(`not-a-photo-${++chats}`))
    await receive(bot, photoUpdate(chats, file))
    await waitForSettled(p.db, bot.channelId)
    const [inbound] = await messagesOf(p.db, bot.channelId, 'inbound')
    expect(inbound).toMatchObject({ status: 'failed', failureReason: MEDIA_FAILURES.unreadable('photo') })
    expect(sentTexts(bot)).toEqual([BEHAVIOUR_TEXTS.fallbackMessage])
  })
})

describe('a voice note that cannot be read', () => {
  async function settledAfter(bot: TestBot, update: Record<string, unknown>) {
    await receive(bot, update)
    await waitForSettled(p.db, bot.channelId)
    const [inbound] = await messagesOf(p.db, bot.channelId, 'inbound')
    return { inbound, conversation: await conversationOf(inbound.conversationId) }
  }

  it('over the size limit: not downloaded, stored with why, the fallback sent, a person asked', async () => {
    const bot = await p.newBot()
    const file = p.telegram.addFile(bot.token, voiceNote(`big-${++chats}`), { size: 25 * 1024 * 1024 })
    const { inbound, conversation } = await settledAfter(bot, voiceUpdate(chats, file))
    const reason = MEDIA_FAILURES.tooLarge(MEDIA_MAX_BYTES)
    expect(inbound).toMatchObject({ status: 'failed', failureReason: reason, text: '[voice note]' })
    expect(inbound.media).toMatchObject({ state: 'failed', reason })
    expect(downloads(bot)).toHaveLength(0)
    expect(sentTexts(bot)).toEqual([BEHAVIOUR_TEXTS.fallbackMessage])
    expect(conversation.attentionReason).toBe(reason)
  })

  it('not a sound recording (a page sent as a voice note): never sent to the transcription service', async () => {
    const bot = await p.newBot()
    const page = Buffer.from('<html><body>not audio</body></html>')
    const before = p.model.transcriptions.length
    const { inbound } = await settledAfter(bot, voiceUpdate(++chats, p.telegram.addFile(bot.token, page)))
    expect(inbound).toMatchObject({ status: 'failed', failureReason: MEDIA_FAILURES.unreadable('voice') })
    expect(p.model.transcriptions.length).toBe(before)
    expect(await storedMedia(inbound.id)).toHaveLength(0)
    expect(sentTexts(bot)).toEqual([BEHAVIOUR_TEXTS.fallbackMessage])
  })

  it('a clip the service cannot decode, and a service that keeps failing: each stored with the reason, answered by the fallback once', async () => {
    const bot = await p.newBot()
    const corrupt = voiceNote(`corrupt-${++chats}`) // unknown to the fake: "corrupted or unsupported"
    const { inbound } = await settledAfter(bot, voiceUpdate(chats, p.telegram.addFile(bot.token, corrupt)))
    expect(inbound.status).toBe('failed')
    expect(inbound.failureReason).toMatch(
      /^The voice note could not be transcribed: .*corrupted or unsupported/,
    )
    expect(sentTexts(bot)).toEqual([BEHAVIOUR_TEXTS.fallbackMessage])

    const other = await p.newBot()
    const { file } = knownClip(other, `down-${++chats}`, 'hello there')
    p.model.enqueueTranscription({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 })
    const failed = await settledAfter(other, voiceUpdate(chats, file))
    expect(failed.inbound.failureReason).toMatch(/^The voice note could not be transcribed: .*HTTP 500/)
    expect(sentTexts(other)).toEqual([BEHAVIOUR_TEXTS.fallbackMessage])
    // The file is kept: a person can listen to it in the inbox.
    expect(await storedMedia(failed.inbound.id)).toHaveLength(1)
  })
})

describe('without a transcription model', () => {
  it('is answered as today: the agent says it reads only text, nothing is downloaded', async () => {
    const bot = await p.newBot({ behaviour: { burstWaitSeconds: 30 } })
    const chatId = ++chats
    const { file } = knownClip(bot, `none-${chatId}`, 'hello')
    await receive(bot, voiceUpdate(chatId, file))
    const [inbound] = await messagesOf(p.db, bot.channelId, 'inbound')
    const result = await replyToMessage({ ...p.deps, media: undefined }, inbound.id)
    expect(result).toEqual({ outcome: 'not-answered', reason: REPLY_FAILURES.unreadable })
    expect(sentTexts(bot)).toEqual([BEHAVIOUR_TEXTS.unreadableMessage])
    expect(downloads(bot)).toHaveLength(0)
    expect((await messagesOf(p.db, bot.channelId, 'inbound'))[0].media).toMatchObject({ state: 'pending' })
  })
})

describe('the inbox reads the stored file', () => {
  it('only within the organization and the conversation it belongs to', async () => {
    const bot = await p.newBot()
    const chatId = ++chats
    const { clip, file } = knownClip(bot, `inbox-${chatId}`, `Is the shop open today ${chatId}`)
    await receive(bot, voiceUpdate(chatId, file))
    await waitForSettled(p.db, bot.channelId)
    const [inbound] = await messagesOf(p.db, bot.channelId, 'inbound')

    const stored = await getMessageFile(bot.scope, inbound.conversationId, inbound.id)
    expect(stored).toMatchObject({ contentType: 'audio/ogg', byteSize: clip.byteLength })
    const detail = await getConversation(bot.scope, inbound.conversationId)
    expect(detail.messages[0].media).toEqual({
      kind: 'voice',
      state: 'read',
      reason: null,
      fileName: null,
      file: { contentType: 'audio/ogg', byteSize: clip.byteLength },
    })

    const other = await p.newBot()
    const [otherMessage] = await (async () => {
      await receive(other, textUpdate(++chats, 'hello'))
      await waitForSettled(p.db, other.channelId)
      return messagesOf(p.db, other.channelId, 'inbound')
    })()
    for (const [scope, conversationId, messageId] of [
      [other.scope, inbound.conversationId, inbound.id],
      [bot.scope, otherMessage.conversationId, inbound.id],
      [other.scope, otherMessage.conversationId, inbound.id],
      [bot.scope, inbound.conversationId, 'not-a-uuid'],
    ] as const) {
      await expect(getMessageFile(scope, conversationId, messageId)).rejects.toMatchObject({
        code: 'NOT_FOUND',
      })
    }
  })
})

describe("the organization's retention period", () => {
  it('deletes the files older than it, organization by organization; the messages and transcripts stay', async () => {
    const stored: { bot: TestBot; messageId: string }[] = []
    for (const days of [30, 90]) {
      const bot = await p.newBot()
      const chatId = ++chats
      const { file } = knownClip(bot, `retention-${chatId}`, `Keep this ${chatId}`)
      await receive(bot, voiceUpdate(chatId, file))
      await waitForSettled(p.db, bot.channelId)
      const [inbound] = await messagesOf(p.db, bot.channelId, 'inbound')
      await p.db
        .update(organizations)
        .set({ mediaRetentionDays: days })
        .where(eq(organizations.id, bot.scope.organizationId))
      stored.push({ bot, messageId: inbound.id })
    }
    const inForty = new Date(Date.now() + 40 * 86_400_000)
    expect(await deleteExpiredMedia(p.db, inForty)).toBeGreaterThanOrEqual(1)
    expect(await storedMedia(stored[0].messageId)).toHaveLength(0)
    expect(await storedMedia(stored[1].messageId)).toHaveLength(1)
    const [kept] = await messagesOf(p.db, stored[0].bot.channelId, 'inbound')
    expect(kept.text).toMatch(/^Keep this/)
    expect(await deleteExpiredMedia(p.db, inForty)).toBe(0)
  })
})

describe('a WhatsApp voice note', () => {
  async function receiveWhatsApp(number: TestMetaChannel, message: Record<string, unknown>) {
    await receiveMetaWebhook({
      db: p.db,
      boss: p.boss,
      body: wabaDelivery('waba-media', [whatsappChange(number.platformChannelId, { messages: [message] })]),
      appId: META_TEST_APP.appId,
      personReplies: async () => false,
    })
  }
  const voiceMessage = (from: string, mediaId: string) => ({
    from,
    id: `wamid.${randomUUID()}`,
    timestamp: String(Math.floor(Date.now() / 1000)),
    type: 'audio',
    audio: { id: mediaId, mime_type: 'audio/ogg; codecs=opus', voice: true },
  })
  const sentOn = (number: TestMetaChannel) =>
    p.graph.messages.filter((m) => m.from === number.platformChannelId).map((m) => m.text)

  it('is fetched with the business token (an expired URL asked for again), transcribed and answered once', async () => {
    const number = await p.newMetaChannel('whatsapp')
    const said = `Olá, vocês entregam no sábado? ${++chats}`
    const clip = voiceNote(`whatsapp-${chats}`)
    p.model.addTranscript(sha256Of(clip), said)
    const mediaId = p.graph.addMedia(number.token, clip, 'audio/ogg')
    p.graph.expireNextMediaUrls(1)
    await receiveWhatsApp(number, voiceMessage(`3491${chats}`, mediaId))
    await waitForSettled(p.db, number.channelId)

    const [inbound] = await messagesOf(p.db, number.channelId, 'inbound')
    expect(inbound).toMatchObject({ kind: 'voice', text: said, status: 'replied', language: 'pt' })
    expect(inbound.media).toMatchObject({ source: 'whatsapp', ref: mediaId, state: 'read' })
    expect(sentOn(number)).toEqual([`Echo: ${said}`])
    // Two URLs asked for (the first one had expired), two downloads tried, the file stored once.
    expect(p.graph.calls.filter((c) => c.method === 'GET' && c.path === `/${mediaId}`)).toHaveLength(2)
    expect(await storedMedia(inbound.id)).toHaveLength(1)
  })

  it('a media id WhatsApp no longer has: stored with why, the fallback sent', async () => {
    const number = await p.newMetaChannel('whatsapp')
    await receiveWhatsApp(number, voiceMessage(`3492${++chats}`, '123456789012345'))
    await waitForSettled(p.db, number.channelId)
    const [inbound] = await messagesOf(p.db, number.channelId, 'inbound')
    expect(inbound).toMatchObject({ status: 'failed', failureReason: MEDIA_FAILURES.expired })
    expect(sentOn(number)).toEqual([BEHAVIOUR_TEXTS.fallbackMessage])
  })

  it('a URL that has expired again is asked for once only: failed with why, the fallback sent', async () => {
    const number = await p.newMetaChannel('whatsapp')
    const mediaId = p.graph.addMedia(number.token, voiceNote(`whatsapp-twice-${++chats}`), 'audio/ogg')
    p.graph.expireNextMediaUrls(2)
    await receiveWhatsApp(number, voiceMessage(`3493${chats}`, mediaId))
    await waitForSettled(p.db, number.channelId)
    const [inbound] = await messagesOf(p.db, number.channelId, 'inbound')
    expect(inbound).toMatchObject({ status: 'failed', failureReason: MEDIA_FAILURES.expired })
    expect(inbound.media).toMatchObject({ state: 'failed', reason: MEDIA_FAILURES.expired })
    expect(p.graph.calls.filter((c) => c.method === 'GET' && c.path === `/${mediaId}`)).toHaveLength(2)
    expect(sentOn(number)).toEqual([BEHAVIOUR_TEXTS.fallbackMessage])
    expect(await storedMedia(inbound.id)).toEqual([])
  })
})

describe('a Messenger voice note', () => {
  async function receiveMessenger(page: TestMetaChannel, url: string) {
    const event = {
      sender: { id: `psid-${chats}` },
      recipient: { id: page.platformChannelId },
      timestamp: Date.now(),
      message: { mid: `m_${randomUUID()}`, attachments: [{ type: 'audio', payload: { url } }] },
    }
    await receiveMetaWebhook({
      db: p.db,
      boss: p.boss,
      body: messengerDelivery(page.platformChannelId, event),
      appId: META_TEST_APP.appId,
      personReplies: async () => false,
    })
    await waitForSettled(p.db, page.channelId)
  }

  it('is fetched from its attachment URL, transcribed and answered once', async () => {
    const page = await p.newMetaChannel('facebook')
    const said = `Do you have this in a larger size ${++chats}?`
    const clip = voiceNote(`messenger-${chats}`)
    p.model.addTranscript(sha256Of(clip), said)
    const url = p.graph.addAttachment(clip, 'audio/mpeg')
    await receiveMessenger(page, url)
    const [inbound] = await messagesOf(p.db, page.channelId, 'inbound')
    expect(inbound).toMatchObject({ kind: 'voice', text: said, status: 'replied' })
    expect(inbound.media).toMatchObject({ source: 'messenger', ref: url, state: 'read' })
    const sent = p.graph.messages.filter((m) => m.from === page.platformChannelId && m.text)
    expect(sent.map((m) => m.text)).toEqual([`Echo: ${said}`])
    expect(await storedMedia(inbound.id)).toEqual([expect.objectContaining({ contentType: 'audio/ogg' })])
  })

  it('an attachment Meta no longer serves: failed with why, the fallback sent', async () => {
    const page = await p.newMetaChannel('facebook')
    const url = p.graph
      .addAttachment(voiceNote(`messenger-gone-${++chats}`), 'audio/mpeg')
      .replace('?', 'gone?')
    await receiveMessenger(page, url)
    const [inbound] = await messagesOf(p.db, page.channelId, 'inbound')
    expect(inbound).toMatchObject({ kind: 'voice', status: 'failed', failureReason: MEDIA_FAILURES.expired })
    const sent = p.graph.messages.filter((m) => m.from === page.platformChannelId && m.text)
    expect(sent.map((m) => m.text)).toEqual([BEHAVIOUR_TEXTS.fallbackMessage])
  })
})

describe('a document', () => {
  it('is read as the knowledge base reads one, and answered from an excerpt of it', async () => {
    const bot = await p.newBot()
    const chatId = ++chats
    const pdf = Buffer.from(makePdf([[`Invoice 2026-${chatId}`, 'Total due: 45.00 EUR by 1 December']]))
    const file = p.telegram.addFile(bot.token, pdf)
    await receive(bot, documentUpdate(chatId, file, 'invoice.pdf', 'why so much?'))
    await waitForSettled(p.db, bot.channelId)

    const [inbound, answer] = await messagesOf(p.db, bot.channelId)
    expect(inbound.kind).toBe('file')
    expect(inbound.text).toMatch(
      new RegExp(
        `^why so much\\?\\n\\[File invoice\\.pdf: Invoice 2026-${chatId} Total due: 45\\.00 EUR by 1 December\\]$`,
      ),
    )
    expect(answer.text).toBe(`Echo: ${inbound.text}`)
    const stored = await getMessageFile(bot.scope, inbound.conversationId, inbound.id)
    expect(stored).toMatchObject({ contentType: 'application/pdf', fileName: 'invoice.pdf' })
  })

  it('a file with no text to read: stored with why, the fallback sent', async () => {
    const bot = await p.newBot()
    const file = p.telegram.addFile(bot.token, Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x13]))
    await receive(bot, documentUpdate(++chats, file, 'x.bin'))
    await waitForSettled(p.db, bot.channelId)
    const [inbound] = await messagesOf(p.db, bot.channelId, 'inbound')
    expect(inbound.status).toBe('failed')
    expect(inbound.failureReason).toMatch(/^The file could not be read: /)
    expect(sentTexts(bot)).toEqual([BEHAVIOUR_TEXTS.fallbackMessage])
  })
})
