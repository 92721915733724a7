import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentRuns, channels, conversations, messages } from '~/db/schema'
import { BEHAVIOUR_TEXTS } from '~/lib/agents/behaviour'
import { REPLY_FAILURES } from '~/lib/conversations/reply-pipeline'
import { archiveAgent, updateAgent } from '~/services/agents/agents.server'
import { deleteChannel } from '~/services/channels/delete-channel.server'
import type { RecordedRequest } from '../../../../tests/fakes/openai-server'
import {
  messagesOf,
  startPipeline,
  textUpdate,
  type Pipeline,
  type TestBot,
} from '../../../../tests/setup/pipeline'
import {
  authenticateTelegramWebhook,
  receiveTelegramUpdate,
} from '~/services/messages/inbound/telegram.server'
import { trimToBudget } from './prompt.server'
import { replyToMessage } from './reply.server'
import { answerLanguageInstruction, fixedLanguageInstruction } from '~/lib/agents/language'
import { BUILT_IN_TEXTS } from '~/lib/agents/built-in-texts'
import { getContact } from '~/services/conversations/contact.server'

// The reply service called directly, one message at a time (no worker: the job tests cover the queue).
let p: Pipeline
beforeAll(async () => {
  p = await startPipeline({ worker: false })
})
afterAll(async () => {
  await p.close()
})

let chats = 500_000
async function receive(bot: TestBot, text: string, chatId = ++chats) {
  const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
  await receiveTelegramUpdate({ db: p.db, boss: p.boss, channel, body: textUpdate(chatId, text) })
  const inbound = (await messagesOf(p.db, bot.channelId, 'inbound')).at(-1)
  if (!inbound) throw new Error('not stored')
  return { inbound, chatId }
}

const reply = (messageId: string) => replyToMessage(p.deps, messageId)
const lastUserText = (request: RecordedRequest) =>
  String(request.body.messages.findLast((m) => m.role === 'user')?.content ?? '')
const requestsFor = (text: string) => p.model.requests.filter((r) => lastUserText(r).includes(text))
const callsOf = (bot: TestBot) => p.telegram.calls.filter((c) => c.token === bot.token).map((c) => c.method)

describe('replyToMessage', () => {
  it('shows typing once the model has taken half a second, and keeps answering when typing fails', async () => {
    const bot = await p.newBot()
    const { inbound } = await receive(bot, 'think slowly')
    p.model.enqueue({ delayMs: 800, match: 'think slowly' })
    p.telegram.enqueue('sendChatAction', { status: 500, token: bot.token })
    expect((await reply(inbound.id)).outcome).toBe('replied')
    expect(callsOf(bot).slice(-2)).toEqual(['sendChatAction', 'sendMessage'])
    expect(p.telegram.sentMessages(bot.token).at(-1)).toMatchObject({ text: 'Echo: think slowly' })
  })

  it('answers with the model, records the run, stores the answer and sends it (no typing for a fast answer)', async () => {
    const bot = await p.newBot({ systemPrompt: 'You are Acme support.' })
    const { inbound, chatId } = await receive(bot, 'Hello there')
    const result = await reply(inbound.id)
    expect(result.outcome).toBe('replied')

    const [request] = requestsFor('Hello there')
    expect(request.body.messages[0]).toMatchObject({
      role: 'system',
      content: `You are Acme support.\n\n${answerLanguageInstruction('en')}`,
    })
    expect(p.telegram.sentMessages(bot.token)).toEqual([
      expect.objectContaining({ chat: expect.objectContaining({ id: chatId }), text: 'Echo: Hello there' }),
    ])
    expect(callsOf(bot).at(-1)).toBe('sendMessage')
    expect(callsOf(bot)).not.toContain('sendChatAction')

    const [stored, answer] = await messagesOf(p.db, bot.channelId)
    expect(stored).toMatchObject({ status: 'replied', failureReason: null })
    expect(answer).toMatchObject({
      direction: 'outbound',
      status: 'sent',
      text: 'Echo: Hello there',
      replyToMessageId: inbound.id,
      conversationId: inbound.conversationId,
      sentParts: 1,
      platformMessageId: `${chatId}:${p.telegram.sentMessages(bot.token)[0].message_id}`,
    })
    const [run] = await p.db
      .select()
      .from(agentRuns)
      .where(eq(agentRuns.id, answer.agentRunId ?? ''))
    expect(run).toMatchObject({ testMode: false, output: 'Echo: Hello there', agentId: bot.agentId })
  })

  it('answers in the language the customer writes: detected at ingest, kept on the message and the conversation, asked for in the prompt', async () => {
    const bot = await p.newBot({ systemPrompt: 'You answer for a bakery in English.' })
    const { inbound, chatId } = await receive(bot, '¿Hacen entregas a domicilio los domingos?')
    expect(inbound.language).toBe('es')
    await reply(inbound.id)
    const [request] = requestsFor('Hacen entregas')
    expect(String(request.body.messages[0].content)).toBe(
      'You answer for a bakery in English.\n\n## Language\nThe customer writes in Spanish. Answer in Spanish, whatever the language of the instructions and passages above.',
    )
    // The run records the question's language (retrieval across languages shows in it).
    const [run] = await p.db
      .select({ language: agentRuns.language })
      .from(agentRuns)
      .innerJoin(messages, eq(messages.agentRunId, agentRuns.id))
      .where(eq(messages.replyToMessageId, inbound.id))
    expect(run?.language).toBe('es')
    // A word that says nothing keeps the conversation's language.
    const next = await receive(bot, 'ok', chatId)
    expect(next.inbound.language).toBeNull()
    await reply(next.inbound.id)
    expect(String(requestsFor('ok').at(-1)?.body.messages[0].content)).toContain('Answer in Spanish')
    const [conversation] = await p.db
      .select({ language: conversations.language })
      .from(conversations)
      .where(eq(conversations.id, inbound.conversationId))
    expect(conversation.language).toBe('es')
    const contact = await getContact(bot.scope, inbound.conversationId)
    expect(contact.language).toBe('es')
  })

  it('built-in messages in the customer’s language: the fallback in Spanish, the handoff in Portuguese; an owner’s own words as written', async () => {
    const bot = await p.newBot({ behaviour: { handoffEnabled: true } })
    const spanish = await receive(bot, '¿Tienen pasteles de chocolate para mañana?')
    for (let i = 0; i < 4; i++) p.model.enqueue({ status: 429, match: 'pasteles de chocolate' })
    expect((await reply(spanish.inbound.id)).outcome).toBe('failed')
    const portuguese = await receive(bot, 'Quero falar com uma pessoa, por favor')
    p.model.enqueue({
      match: 'falar com uma pessoa',
      toolCall: { name: 'handoff', arguments: { reason: 'Asked' } },
    })
    await reply(portuguese.inbound.id)
    expect(p.telegram.sentMessages(bot.token).map((m) => m.text)).toEqual([
      BUILT_IN_TEXTS.es.fallback,
      BUILT_IN_TEXTS.pt.handoff,
    ])

    const own = await p.newBot({ behaviour: { fallbackMessage: 'Uy, algo falló. Te escribimos enseguida.' } })
    const mine = await receive(own, '¿Abren el domingo por la mañana?')
    for (let i = 0; i < 4; i++) p.model.enqueue({ status: 429, match: 'domingo por la' })
    await reply(mine.inbound.id)
    expect(p.telegram.sentMessages(own.token).map((m) => m.text)).toEqual([
      'Uy, algo falló. Te escribimos enseguida.',
    ])
  })

  it('an agent fixed to Spanish asks the model for Spanish and sends its fallback in Spanish to a customer who writes English', async () => {
    const bot = await p.newBot({ systemPrompt: 'You answer for a bakery.' })
    await updateAgent(bot.scope, bot.agentId ?? 'no agent', { replyLanguage: 'es' })
    const first = await receive(bot, 'Can I order a chocolate cake for tomorrow?')
    expect(first.inbound.language).toBe('en')
    await reply(first.inbound.id)
    expect(String(requestsFor('chocolate cake')[0].body.messages[0].content)).toBe(
      `You answer for a bakery.\n\n${fixedLanguageInstruction('es')}`,
    )
    expect(fixedLanguageInstruction('es')).toContain('Always answer in Spanish')
    const second = await receive(bot, 'And do you deliver on Sundays as well?', first.chatId)
    for (let i = 0; i < 4; i++) p.model.enqueue({ status: 429, match: 'deliver on Sundays' })
    expect((await reply(second.inbound.id)).outcome).toBe('failed')
    expect(p.telegram.sentMessages(bot.token).map((m) => m.text)).toEqual([
      'Echo: Can I order a chocolate cake for tomorrow?',
      BUILT_IN_TEXTS.es.fallback,
    ])
  })

  it("an owner's Portuguese translation of the handoff reaches a Portuguese customer; a Spanish one still gets the default", async () => {
    const bot = await p.newBot({ behaviour: { handoffEnabled: true } })
    const translated = 'Já chamo a Ana, da nossa loja. Ela responde aqui em poucos minutos.'
    await updateAgent(bot.scope, bot.agentId ?? 'no agent', { translations: { pt: { handoff: translated } } })
    const portuguese = await receive(bot, 'Quero falar com uma pessoa, por favor')
    const spanish = await receive(bot, 'Quiero hablar con una persona, por favor')
    for (const match of ['falar com uma pessoa', 'hablar con una persona']) {
      p.model.enqueue({ match, toolCall: { name: 'handoff', arguments: { reason: 'Asked' } } })
    }
    await reply(portuguese.inbound.id)
    await reply(spanish.inbound.id)
    expect(p.telegram.sentMessages(bot.token).map((m) => m.text)).toEqual([
      translated,
      BUILT_IN_TEXTS.es.handoff,
    ])
  })

  it('runs again without answering twice, and sends a stored answer without asking the model again', async () => {
    const bot = await p.newBot()
    const { inbound } = await receive(bot, 'Twice please')
    await reply(inbound.id)
    expect(await reply(inbound.id)).toEqual({ outcome: 'skipped', reason: 'The message is replied' })
    expect(p.telegram.sentMessages(bot.token)).toHaveLength(1)
    expect(requestsFor('Twice please')).toHaveLength(1)

    // A worker that died after the model answered and before the send: the answer is pending.
    const second = await receive(bot, 'Crash after the model')
    await p.db.insert(messages).values({
      organizationId: second.inbound.organizationId,
      channelId: bot.channelId,
      conversationId: second.inbound.conversationId,
      direction: 'outbound',
      text: 'Already generated',
      status: 'pending',
      replyToMessageId: second.inbound.id,
    })
    expect((await reply(second.inbound.id)).outcome).toBe('replied')
    expect(requestsFor('Crash after the model')).toHaveLength(0)
    expect(p.telegram.sentMessages(bot.token).map((m) => m.text)).toEqual([
      'Echo: Twice please',
      'Already generated',
    ])
  })

  it('splits a long answer at 4096 characters on word boundaries and remembers what went out', async () => {
    const bot = await p.newBot()
    const { inbound } = await receive(bot, 'Tell me everything')
    const long = Array.from({ length: 1200 }, (_, i) => `word${i}`).join(' ')
    p.model.enqueue({ reply: long, match: 'Tell me everything' })
    await reply(inbound.id)
    const sent = p.telegram.sentMessages(bot.token).map((m) => m.text)
    expect(sent.length).toBe(3)
    expect(sent.every((t) => t.length <= 4096 && !t.startsWith(' ') && !t.endsWith(' '))).toBe(true)
    expect(sent.join(' ')).toBe(long)
    expect((await messagesOf(p.db, bot.channelId, 'outbound'))[0]).toMatchObject({ sentParts: 3, text: long })
  })

  describe('gating: stored, never answered', () => {
    it('without an agent, with the agent disabled, with the agent archived', async () => {
      const none = await p.newBot({ agent: false })
      const disabled = await p.newBot({ agentEnabled: false })
      const archived = await p.newBot()
      await archiveAgent(archived.scope, archived.agentId ?? '')
      const expected = [
        [none, 'No agent is assigned to this channel'],
        [disabled, 'The agent is disabled on this channel'],
        [archived, 'The agent is archived'],
      ] as const
      for (const [bot, reason] of expected) {
        const { inbound } = await receive(bot, `gated ${reason}`)
        expect(await reply(inbound.id)).toEqual({ outcome: 'not-answered', reason })
        expect((await messagesOf(p.db, bot.channelId))[0]).toMatchObject({
          status: 'received',
          failureReason: reason,
        })
        expect(p.telegram.sentMessages(bot.token)).toEqual([])
        expect(requestsFor(`gated ${reason}`)).toEqual([])
      }
    })

    it('a deleted channel takes its messages along: the job finds nothing to do', async () => {
      const bot = await p.newBot()
      const { inbound } = await receive(bot, 'Anyone?')
      await deleteChannel(bot.scope, bot.channelId, p.channelDeps)
      expect(await reply(inbound.id)).toEqual({ outcome: 'skipped', reason: 'The message no longer exists' })
      expect(p.telegram.sentMessages(bot.token)).toEqual([])
    })
  })

  describe('failures and retries', () => {
    it('model 500 then success: one answer', async () => {
      const bot = await p.newBot()
      const { inbound } = await receive(bot, 'flaky model')
      p.model.enqueue({ status: 500, match: 'flaky model' })
      expect((await reply(inbound.id)).outcome).toBe('replied')
      expect(requestsFor('flaky model')).toHaveLength(2)
      expect(p.telegram.sentMessages(bot.token).map((m) => m.text)).toEqual(['Echo: flaky model'])
    })

    it('model always 429: four tries (3 retries), then the message failed with the reason and the fallback sent once', async () => {
      const bot = await p.newBot()
      const { inbound } = await receive(bot, 'rate limited model')
      for (let i = 0; i < 4; i++) p.model.enqueue({ status: 429, match: 'rate limited model' })
      const reason = 'The model provider is rate limiting requests (HTTP 429).'
      expect(await reply(inbound.id)).toEqual({ outcome: 'failed', reason })
      expect(requestsFor('rate limited model')).toHaveLength(4)
      const rows = await messagesOf(p.db, bot.channelId)
      expect(rows).toEqual([
        expect.objectContaining({ status: 'failed', failureReason: reason }),
        expect.objectContaining({
          direction: 'outbound',
          status: 'sent',
          text: BEHAVIOUR_TEXTS.fallbackMessage,
          replyToMessageId: null,
          agentRunId: null,
          clientKey: `fallback:${inbound.id}`,
        }),
      ])
      expect(p.telegram.sentMessages(bot.token).map((m) => m.text)).toEqual([BEHAVIOUR_TEXTS.fallbackMessage])
      const [conversation] = await p.db
        .select()
        .from(conversations)
        .where(eq(conversations.id, inbound.conversationId))
      expect(conversation).toMatchObject({ state: 'needs_attention', attentionReason: reason })
      // Run again (a redelivered job): the message is settled, nothing more is sent.
      expect((await reply(inbound.id)).outcome).toBe('skipped')
      expect(p.telegram.sentMessages(bot.token)).toHaveLength(1)
      const runs = await p.db
        .select()
        .from(agentRuns)
        .where(eq(agentRuns.agentId, bot.agentId ?? ''))
      expect(runs.map((r) => r.error)).toEqual(Array(4).fill(reason))
    })

    it('a model error that is not worth retrying fails at once', async () => {
      const bot = await p.newBot()
      const { inbound } = await receive(bot, 'bad key')
      p.model.enqueue({ status: 401, match: 'bad key' })
      expect(await reply(inbound.id)).toMatchObject({
        outcome: 'failed',
        reason: expect.stringContaining('401'),
      })
      expect(requestsFor('bad key')).toHaveLength(1)
    })

    it('Telegram 429 with retry_after 1: waits that second, then one answer', async () => {
      const bot = await p.newBot()
      const { inbound } = await receive(bot, 'slow down')
      p.telegram.enqueue('sendMessage', { status: 429, retryAfter: 1, token: bot.token })
      const started = Date.now()
      expect((await reply(inbound.id)).outcome).toBe('replied')
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
      expect(callsOf(bot).filter((m) => m === 'sendMessage')).toHaveLength(2)
      expect(p.telegram.sentMessages(bot.token).map((m) => m.text)).toEqual(['Echo: slow down'])
    })

    it("Telegram's flood control: a wait of minutes is slept through; one longer than 4 minutes fails the message", async () => {
      const waits: number[] = []
      const deps = { ...p.deps, retry: { ...p.deps.retry, sleep: async (ms: number) => void waits.push(ms) } }
      const bot = await p.newBot()
      const { inbound } = await receive(bot, 'flood one')
      p.telegram.enqueue('sendMessage', { status: 429, retryAfter: 180, token: bot.token })
      expect((await replyToMessage(deps, inbound.id)).outcome).toBe('replied')
      expect(waits).toEqual([180_000])
      expect(p.telegram.sentMessages(bot.token).map((m) => m.text)).toEqual(['Echo: flood one'])

      const second = await receive(bot, 'flood two')
      p.telegram.enqueue('sendMessage', { status: 429, retryAfter: 600, token: bot.token })
      expect((await replyToMessage(deps, second.inbound.id)).outcome).toBe('failed')
      expect(waits).toEqual([180_000])
      const [stored] = await p.db.select().from(messages).where(eq(messages.id, second.inbound.id))
      expect(stored.status).toBe('failed')
      expect(stored.failureReason).toBe(
        'Rate limit exceeded: Telegram asked to wait 600 s, longer than the 4 minutes a reply waits',
      )
    })

    it('a token Telegram no longer accepts: the channel is in error, the message failed', async () => {
      const bot = await p.newBot()
      const { inbound } = await receive(bot, 'revoked token')
      p.telegram.enqueue('sendMessage', { status: 401, token: bot.token })
      expect(await reply(inbound.id)).toEqual({ outcome: 'failed', reason: REPLY_FAILURES.tokenInvalid })
      expect(p.telegram.sentMessages(bot.token)).toEqual([])
      const [channel] = await p.db.select().from(channels).where(eq(channels.id, bot.channelId))
      expect(channel).toMatchObject({ status: 'error', statusReason: 'Bot token is invalid or expired' })

      // Later messages on a channel with a dead token are kept for a person, with the reason (ADR 046).
      const later = await receive(bot, 'after the error')
      expect(await reply(later.inbound.id)).toEqual({
        outcome: 'not-answered',
        reason: REPLY_FAILURES.tokenInvalid,
      })
    })

    it('an empty model answer fails the message and sends the fallback instead of nothing', async () => {
      const bot = await p.newBot()
      const { inbound } = await receive(bot, 'say nothing')
      p.model.enqueue({ reply: '   ', match: 'say nothing' })
      expect(await reply(inbound.id)).toEqual({ outcome: 'failed', reason: REPLY_FAILURES.emptyAnswer })
      expect(p.telegram.sentMessages(bot.token).map((m) => m.text)).toEqual([BEHAVIOUR_TEXTS.fallbackMessage])
    })

    it('with an empty fallback message nothing is sent, and the conversation is still marked', async () => {
      const bot = await p.newBot({ behaviour: { fallbackMessage: '' } })
      const { inbound } = await receive(bot, 'model down quietly')
      for (let i = 0; i < 4; i++) p.model.enqueue({ status: 503, match: 'model down quietly' })
      expect((await reply(inbound.id)).outcome).toBe('failed')
      expect(p.telegram.sentMessages(bot.token)).toEqual([])
      const [conversation] = await p.db
        .select()
        .from(conversations)
        .where(eq(conversations.id, inbound.conversationId))
      expect(conversation.state).toBe('needs_attention')
    })
  })

  describe('the prompt', () => {
    it('holds the conversation, oldest first, each answer after its message, other chats left out', async () => {
      const bot = await p.newBot()
      const chatId = ++chats
      const first = await receive(bot, 'first question', chatId)
      const second = await receive(bot, 'second question', chatId)
      await receive(bot, 'another chat entirely')
      await reply(first.inbound.id)
      const third = await receive(bot, 'third question', chatId)
      await reply(second.inbound.id)
      // The prompt of the second message was built before the third arrived: it ends with the second.
      const [request] = requestsFor('second question')
      expect(request.body.messages.map((m) => m.content)).toEqual([
        expect.stringMatching(/^You are a helpful assistant\.\n\n## Language\n/),
        'first question',
        'Echo: first question',
        'second question',
      ])
      await reply(third.inbound.id)
      const [thirdRequest] = requestsFor('third question')
      expect(thirdRequest.body.messages.slice(1)).toEqual([
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'Echo: first question' },
        { role: 'user', content: 'second question' },
        { role: 'assistant', content: 'Echo: second question' },
        { role: 'user', content: 'third question' },
      ])
      // A window of two: the fourth and the third's answer, which would lead as the assistant's: dropped.
      const fourth = await receive(bot, 'fourth question', chatId)
      await replyToMessage({ ...p.deps, conversationWindow: 2 }, fourth.inbound.id)
      const [fourthRequest] = requestsFor('fourth question')
      expect(fourthRequest.body.messages.slice(1)).toEqual([{ role: 'user', content: 'fourth question' }])
    })

    it('is trimmed from the oldest to the budget, keeps the newest, and starts with the customer', () => {
      const rows = [
        { direction: 'inbound' as const, text: 'a'.repeat(400) },
        { direction: 'outbound' as const, text: 'b'.repeat(400) },
        { direction: 'inbound' as const, text: 'c'.repeat(40) },
        { direction: 'outbound' as const, text: 'd'.repeat(40) },
        { direction: 'inbound' as const, text: 'e'.repeat(40) },
      ]
      expect(trimToBudget(rows, 1000).map((m) => m.content[0])).toEqual(['a', 'b', 'c', 'd', 'e'])
      // 130 tokens: e, d, c and b fit; b would lead as the assistant's: dropped to start with the customer.
      expect(trimToBudget(rows, 130).map((m) => m.content[0])).toEqual(['c', 'd', 'e'])
      expect(trimToBudget(rows, 25).map((m) => m.content[0])).toEqual(['e'])
      expect(trimToBudget(rows.slice(0, 1), 1).map((m) => m.content[0])).toEqual(['a'])
    })
  })

  it('a photo is stored with its kind and gets the "text only" message once; the conversation needs a person', async () => {
    const bot = await p.newBot()
    const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
    const photo = textUpdate(++chats, '')
    const body = { ...photo, message: { ...photo.message, text: undefined, caption: 'my cat', photo: [{}] } }
    await receiveTelegramUpdate({ db: p.db, boss: p.boss, channel, body })
    const [row] = await p.db
      .select()
      .from(messages)
      .where(and(eq(messages.channelId, bot.channelId), eq(messages.direction, 'inbound')))
    expect(row).toMatchObject({ status: 'queued', kind: 'photo', text: '[photo] my cat' })
    expect(await reply(row.id)).toEqual({ outcome: 'not-answered', reason: REPLY_FAILURES.unreadable })
    expect(p.model.requests.filter((r) => JSON.stringify(r.body).includes('my cat'))).toEqual([])
    expect(p.telegram.sentMessages(bot.token).map((m) => m.text)).toEqual([BEHAVIOUR_TEXTS.unreadableMessage])
    const [conversation] = await p.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, row.conversationId))
    expect(conversation).toMatchObject({
      state: 'needs_attention',
      attentionReason: 'The customer sent something the agent cannot read: [photo]',
    })
    expect(await reply(row.id)).toMatchObject({ outcome: 'skipped' })
    expect(p.telegram.sentMessages(bot.token)).toHaveLength(1)
  })
})
