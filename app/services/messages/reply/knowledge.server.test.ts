import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentRuns, agents, conversations } from '~/db/schema'
import { AGENT_KNOWLEDGE_DEFAULTS } from '~/lib/knowledge/knowledge'
import { REPLY_FAILURES } from '~/lib/conversations/reply-pipeline'
import { KNOWLEDGE_INSTRUCTION, NO_PASSAGE_MATCHED } from '~/services/knowledge/agent-knowledge.server'
import { NO_ANSWER } from '~/lib/knowledge/knowledge'
import type { KnowledgeJobData } from '~/services/knowledge/knowledge-queue.server'
import { pauseConversation } from '~/services/conversations/takeover.server'
import { processKnowledgeSource } from '~/services/knowledge/process-source.server'
import { createKnowledgeSource } from '~/services/knowledge/sources.server'
import { getLogger } from '~/utils/logger.server'
import {
  messagesOf,
  startPipeline,
  textUpdate,
  waitForSettled,
  type Pipeline,
  type TestBot,
} from '../../../../tests/setup/pipeline'
import {
  authenticateTelegramWebhook,
  receiveTelegramUpdate,
} from '~/services/messages/inbound/telegram.server'

// Answers grounded in the organization's knowledge (issue #18): a Telegram customer's question through the webhook,
// the reply worker, the model fake and the Telegram fake over HTTP.
let p: Pipeline
beforeAll(async () => {
  p = await startPipeline()
})
afterAll(async () => {
  await p.close()
})

let chats = 900_000
async function ask(bot: TestBot, text: string, chatId = ++chats) {
  const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
  await receiveTelegramUpdate({ db: p.db, boss: p.boss, channel, body: textUpdate(chatId, text) })
  await waitForSettled(p.db, bot.channelId)
  return chatId
}

/** A bot whose agent answers from all of its organization's knowledge, which holds one FAQ entry. */
async function botWithFaq(question: string, answer: string, systemPrompt?: string) {
  const bot = await p.newBot({ systemPrompt })
  await p.db
    .update(agents)
    .set({ knowledgeMode: 'all' })
    .where(eq(agents.id, bot.agentId ?? ''))
  const sent: KnowledgeJobData[] = []
  await createKnowledgeSource(
    bot.scope,
    { kind: 'faq', question, answer },
    {
      jobs: async (_tx, job) => void sent.push(job),
    },
  )
  for (const job of sent) {
    await processKnowledgeSource({ db: p.db, logger: getLogger('warn'), web: {} }, job)
  }
  return bot
}

async function until(condition: () => boolean) {
  for (let tries = 0; !condition(); tries++) {
    if (tries > 200) throw new Error('Timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

const modelCallsWith = (text: string) =>
  p.model.requests.filter(
    (r) => r.path.endsWith('/chat/completions') && JSON.stringify(r.body).includes(text),
  )

/**
 * The no-answer path: the customer got the agent's no-answer message (and nothing else: never the model's NO_ANSWER),
 * the message is left to a person, and the conversation needs attention (returned).
 */
async function expectNoAnswerPath(bot: TestBot) {
  expect(p.telegram.sentMessages(bot.token).map((m) => m.text)).toEqual([
    AGENT_KNOWLEDGE_DEFAULTS.knowledgeNoAnswerMessage,
  ])
  const rows = await messagesOf(p.db, bot.channelId)
  expect(rows.map((m) => [m.direction, m.status, m.failureReason])).toEqual([
    ['inbound', 'received', REPLY_FAILURES.noKnowledge],
    ['outbound', 'sent', null],
  ])
  const [conversation] = await p.db
    .select()
    .from(conversations)
    .where(eq(conversations.id, rows[0].conversationId))
  expect(conversation.state).toBe('needs_attention')
  return conversation
}

describe('answers grounded in knowledge', () => {
  it("the model reads the FAQ entry that answers the customer's question, and the run records it", async () => {
    const answer = 'Our Utrecht store is open on Sundays from 12:00 to 17:00 (kb-sunday).'
    const bot = await botWithFaq('Are you open on Sundays?', answer)
    await ask(bot, 'what time do you open on sunday?')

    const [call] = modelCallsWith('kb-sunday')
    expect(call).toBeDefined()
    const system = call.body.messages.find((m) => m.role === 'system')
    expect(String(system?.content)).toContain(KNOWLEDGE_INSTRUCTION)
    expect(String(system?.content)).toContain(`[1] Are you open on Sundays?\n${answer}`)
    const [run] = await p.db
      .select()
      .from(agentRuns)
      .where(eq(agentRuns.agentId, bot.agentId ?? ''))
    expect(run.knowledge).toEqual([
      expect.objectContaining({
        title: 'Are you open on Sundays?',
        headingPath: [],
        score: expect.any(Number),
      }),
    ])
    const rows = await messagesOf(p.db, bot.channelId)
    expect(rows.map((m) => [m.direction, m.status])).toEqual([
      ['inbound', 'replied'],
      ['outbound', 'sent'],
    ])
  })

  it('a factual question neither the passages nor the prompt answer: the model, told so, says NO_ANSWER; the customer is told a person will help, the conversation needs attention', async () => {
    const bot = await botWithFaq('Do you sell gift cards?', 'Yes, from 10 to 500 euros (kb-gift).')
    p.model.enqueue({ reply: NO_ANSWER, match: 'parachute jump' })
    await ask(bot, 'can I bring my dog to the parachute jump')

    const [call] = modelCallsWith('parachute jump')
    const system = String(call.body.messages.find((m) => m.role === 'system')?.content)
    expect(system).toContain(KNOWLEDGE_INSTRUCTION)
    expect(system).toContain(NO_PASSAGE_MATCHED)
    expect(system).not.toContain('kb-gift')
    const conversation = await expectNoAnswerPath(bot)
    expect(conversation.attentionReason).toContain('can I bring my dog to the parachute jump')
  })

  it('knowledge never silences what the prompt knows: "Hi!", a question the system prompt answers and "thanks!" get the model’s answers, and nothing is marked', async () => {
    const bot = await botWithFaq(
      'Do you sell gift cards?',
      'Yes, from 10 to 500 euros.',
      'You answer for a bakery. We sell bread, croissants and cakes.',
    )
    p.model.enqueue({ reply: 'Yes, fresh every morning!', match: 'Do you sell croissants?' })
    const chatId = await ask(bot, 'Hi!')
    await ask(bot, 'Do you sell croissants?', chatId)
    await ask(bot, 'thanks!', chatId)

    const [call] = modelCallsWith('Do you sell croissants?')
    const system = String(call.body.messages.find((m) => m.role === 'system')?.content)
    expect(system).toContain('We sell bread, croissants and cakes.')
    expect(system).toContain(KNOWLEDGE_INSTRUCTION)
    const sent = p.telegram.sentMessages(bot.token).map((m) => m.text)
    expect(sent).toHaveLength(3)
    expect(sent[1]).toBe('Yes, fresh every morning!')
    expect(sent).not.toContain(AGENT_KNOWLEDGE_DEFAULTS.knowledgeNoAnswerMessage)
    const rows = await messagesOf(p.db, bot.channelId, 'inbound')
    expect(rows.map((m) => m.status)).toEqual(['replied', 'replied', 'replied'])
    const [conversation] = await p.db
      .select()
      .from(conversations)
      .where(eq(conversations.channelId, bot.channelId))
    expect(conversation.attentionReason).toBeNull()
    expect(conversation.state).not.toBe('needs_attention')
  })

  it('passages that do not hold the answer: the model says so, and the customer is told a person will help', async () => {
    const bot = await botWithFaq('Do you sell gift cards?', 'Yes, from 10 to 500 euros (kb-gift-2).')
    p.model.enqueue({ reply: NO_ANSWER, match: 'kb-engrave' })
    await ask(bot, 'can you engrave a name on a gift card? kb-engrave')

    expect(modelCallsWith('kb-gift-2')).toHaveLength(1)
    await expectNoAnswerPath(bot)
    const [run] = await p.db
      .select()
      .from(agentRuns)
      .where(eq(agentRuns.agentId, bot.agentId ?? ''))
    expect(run).toMatchObject({
      output: AGENT_KNOWLEDGE_DEFAULTS.knowledgeNoAnswerMessage,
      context: expect.objectContaining({ knowledgeMiss: true }),
      knowledge: [expect.objectContaining({ title: 'Do you sell gift cards?' })],
    })
    expect(run.context).not.toHaveProperty('withheld')
  })

  it('passages without the answer while a person takes over: no notice is sent over the person', async () => {
    const bot = await botWithFaq('Do you sell gift cards?', 'Yes, from 10 to 500 euros (kb-gift-3).')
    p.model.enqueue({ reply: NO_ANSWER, match: 'kb-takeover', delayMs: 700 })
    const asking = ask(bot, 'can you wrap a gift card? kb-takeover')
    await until(() => modelCallsWith('kb-takeover').length > 0)
    const [conversation] = await p.db
      .select()
      .from(conversations)
      .where(eq(conversations.channelId, bot.channelId))
    await pauseConversation(bot.scope, conversation.id, {}, async () => {})
    await asking

    expect(p.telegram.sentMessages(bot.token)).toEqual([])
    const rows = await messagesOf(p.db, bot.channelId)
    expect(rows.map((m) => [m.direction, m.status, m.failureReason])).toEqual([
      ['inbound', 'received', REPLY_FAILURES.aiPaused],
    ])
    const [run] = await p.db
      .select()
      .from(agentRuns)
      .where(eq(agentRuns.agentId, bot.agentId ?? ''))
    expect(run.context).toMatchObject({ knowledgeMiss: true, withheld: true })
  })

  it('a greeting is answered by the model even when no passage matches', async () => {
    const bot = await botWithFaq('Do you sell gift cards?', 'Yes, from 10 to 500 euros.')
    const before = p.model.requests.length
    await ask(bot, 'hello!')
    expect(p.model.requests.length).toBe(before + 1)
    const rows = await messagesOf(p.db, bot.channelId)
    expect(rows.map((m) => m.status)).toEqual(['replied', 'sent'])
  })
})
