import { setTimeout as sleepFor } from 'node:timers/promises'
import { aliasedTable, and, eq, sql, type SQLWrapper } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { rowsOf } from '~/db/rows.server'
import {
  agentRuns,
  agents,
  channels,
  conversations,
  messages,
  type Agent,
  type Channel,
  type Conversation,
  type Message,
} from '~/db/schema'
import type { ChatMessage, ModelClient } from '~/integrations/llm/model.server'
import { ModelError } from '~/integrations/llm/model.server'
import type { GraphClient } from '~/integrations/meta/graph.server'
import {
  PlatformError,
  withPlatformRetries,
  type Platform,
  type PlatformRetryOptions,
} from '~/integrations/platform-errors'
import type { TelegramClient } from '~/integrations/telegram/bot-api.server'
import { PLATFORM_LABELS } from '~/lib/channels'
import {
  estimateTokens,
  MAX_SLEPT_RETRY_AFTER_MS,
  PLATFORM_TEXT_LIMITS,
  PROMPT_HISTORY_TOKEN_BUDGET,
  REPLY_FAILURES,
  splitMessage,
  TYPING_DELAY_MS,
  TYPING_RENEW_MS,
} from '~/lib/messages'
import { callAgentModel, recordRun } from '~/services/agents/run-agent.server'
import { decryptSecret } from '~/utils/crypto.server'
import type { Logger } from '~/utils/logger.server'
import { recordReply } from '~/utils/metrics.server'

export type ReplyDeps = {
  db: Database
  models: Pick<ModelClient, 'generate'>
  telegram: Pick<TelegramClient, 'sendMessage' | 'sendChatAction'>
  graph: Pick<GraphClient, 'sendMessengerText' | 'sendMessengerTyping' | 'sendWhatsAppText'>
  encryptionKey: string
  /** How many messages of the conversation go into the prompt. */
  conversationWindow: number
  logger: Logger
  /** The spec's policy by default; tests shorten the backoff. A platform wait over 30 s is not slept through. */
  retry?: Omit<PlatformRetryOptions, 'onRetry'>
  /** Aborted when the job's claim is lost or the worker stops: the job is then retried, not failed. */
  signal?: AbortSignal
}

export type ReplyOutcome =
  /** `sentNow`: this run sent it (false when an earlier run had sent it and only its state was left). */
  | { outcome: 'replied'; outboundId: string; sentNow: boolean }
  /** Stored, and left to a person: no agent to answer (the reason is on the message). */
  | { outcome: 'not-answered'; reason: string }
  | { outcome: 'failed'; reason: string }
  /** Nothing to do: the message is gone (its channel was deleted) or was handled by an earlier run. */
  | { outcome: 'skipped'; reason: string }

/** One platform's way of answering in one conversation. */
type Sender = {
  platform: Platform
  limit: number
  typing(): Promise<void>
  send(text: string): Promise<{ platformMessageId: string }>
}

type ReplyContext = {
  message: Message
  channel: Channel
  conversation: Conversation
  agent: Agent | null
  /** The answer already stored by an earlier run, if any. */
  reply: Message | null
  /** The conversation up to the message, newest first (see promptRows). */
  prompt: PromptRow[]
}

type PromptRow = Pick<Message, 'direction' | 'text'>

/** A retryable ModelError dressed as a PlatformError, so that one retry policy covers the model and the platform. */
class RetryableModelError extends PlatformError {
  constructor(
    platform: Platform,
    readonly modelError: ModelError,
  ) {
    super(platform, 'SERVER_ERROR', {
      message: modelError.message,
      retryable: true,
      retryAfterMs: modelError.retryAfterMs,
    })
  }
}

/**
 * The conversation up to a message (its conversation and sequence), newest first, as the model reads it: at most
 * `window` messages as a JSON array, each answer counted at the place of the message it answers (answers of fast
 * messages are sent after later ones arrive), messages that were never text and answers not delivered left out.
 * A correlated subquery, so that the reply's context and its prompt come in one round trip.
 */
function promptRows(conversationId: SQLWrapper, sequence: SQLWrapper, window: SQLWrapper) {
  return sql<PromptRow[]>`(
    select coalesce(
      json_agg(json_build_object('direction', t.direction, 'text', t.text)
        order by t.position desc, t.direction desc, t.sequence desc),
      '[]'::json)
    from (
      select m.direction, m.text, m.sequence, coalesce(answered.sequence, m.sequence) as position
      from messages m
      left join messages answered on answered.id = m.reply_to_message_id
      where m.conversation_id = ${conversationId}
        and coalesce(answered.sequence, m.sequence) <= ${sequence}
        and ((m.direction = 'inbound' and m.status <> 'ignored')
          or (m.direction = 'outbound' and m.status in ('sent', 'delivered', 'read')))
      order by position desc, m.direction desc, m.sequence desc
      limit ${window}
    ) t)`
}

/**
 * The reply path's statements, prepared once per database: at 100 replies/s, building these queries anew (five
 * joined tables and some eighty columns; inserts and updates of a wide table) cost the worker more CPU than
 * running them.
 */
function buildQueries(db: Database) {
  const reply = aliasedTable(messages, 'reply')
  const context = db
    .select({
      message: messages,
      channel: channels,
      conversation: conversations,
      agent: agents,
      reply,
      prompt: promptRows(messages.conversationId, messages.sequence, sql.placeholder('window')),
    })
    .from(messages)
    .innerJoin(channels, eq(channels.id, messages.channelId))
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .leftJoin(agents, eq(agents.id, channels.agentId))
    .leftJoin(reply, and(eq(reply.replyToMessageId, messages.id), eq(reply.direction, 'outbound')))
    .where(eq(messages.id, sql.placeholder('messageId')))
    .limit(1)
    .prepare('reply_context')

  // The model's run and the answer it gave, in one statement.
  const run = db.$with('run').as(
    db
      .insert(agentRuns)
      .values({
        executionId: sql.placeholder('executionId'),
        organizationId: sql.placeholder('organizationId'),
        agentId: sql.placeholder('agentId'),
        input: sql.placeholder('input'),
        output: sql.placeholder('output'),
        modelUsed: sql.placeholder('modelUsed'),
        promptTokens: sql.placeholder('promptTokens'),
        completionTokens: sql.placeholder('completionTokens'),
        totalTokens: sql.placeholder('totalTokens'),
        latencyMs: sql.placeholder('latencyMs'),
        testMode: sql.placeholder('testMode'),
        context: sql.placeholder('context'),
      })
      .returning({ id: agentRuns.id }),
  )
  const insertAnswer = db
    .with(run)
    .insert(messages)
    .values({
      organizationId: sql.placeholder('organizationId'),
      channelId: sql.placeholder('channelId'),
      conversationId: sql.placeholder('conversationId'),
      direction: 'outbound',
      senderId: sql.placeholder('senderId'),
      senderName: sql.placeholder('senderName'),
      text: sql.placeholder('text'),
      status: 'pending',
      replyToMessageId: sql.placeholder('replyToMessageId'),
      agentRunId: sql`(select id from ${run})`,
    })
    .onConflictDoNothing({ target: messages.replyToMessageId, where: sql`direction = 'outbound'` })
    .returning()
    .prepare('reply_insert_answer')

  // See recordReplied.
  const sent = db.$with('sent').as(
    db
      .update(messages)
      .set({
        status: 'sent',
        platformSentAt: sql`statement_timestamp()`,
        failureReason: null,
        sentParts: sql`${sql.placeholder('sentParts')}`,
        platformMessageId: sql`${sql.placeholder('platformMessageId')}`,
      })
      .where(and(eq(messages.id, sql.placeholder('replyId')), eq(messages.status, 'pending')))
      .returning({ id: messages.id }),
  )
  const recordLastPart = db
    .with(sent)
    .update(messages)
    .set({ status: 'replied', failureReason: null })
    .where(and(eq(messages.id, sql.placeholder('inboundId')), eq(messages.status, 'queued')))
    .prepare('reply_record_last_part')
  return { context, insertAnswer, recordLastPart }
}

const prepared = new WeakMap<Database, ReturnType<typeof buildQueries>>()
function queriesFor(db: Database) {
  let queries = prepared.get(db)
  if (!queries) {
    queries = buildQueries(db)
    prepared.set(db, queries)
  }
  return queries
}

/** The message with everything its reply needs, its stored answer included, in one query. */
async function loadContext(
  db: Database,
  messageId: string,
  window: number,
): Promise<ReplyContext | undefined> {
  const [row] = await queriesFor(db).context.execute({ messageId, window: Math.max(1, window) })
  return row
}

async function findReply(db: Database, inboundId: string): Promise<Message | undefined> {
  const [reply] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.replyToMessageId, inboundId), eq(messages.direction, 'outbound')))
    .limit(1)
  return reply
}

/** The agent that answers on the channel, or why none does (spec section 4, agent assignment on a channel). */
function answeringAgent(channel: Channel, agent: Agent | null): { agent: Agent } | { reason: string } {
  if (!channel.agentId || !agent) return { reason: 'No agent is assigned to this channel' }
  if (!channel.agentEnabled) return { reason: 'The agent is disabled on this channel' }
  if (agent.status !== 'active') return { reason: `The agent is ${agent.status}` }
  if (channel.status !== 'active') return { reason: `The channel is not active (${channel.status})` }
  if (!isReplyPlatform(channel.platformName)) {
    return { reason: `Replies on ${channel.platformName} are not supported` }
  }
  if (!channel.accessTokenEncrypted) return { reason: 'The channel has no access token' }
  return { agent }
}

const isReplyPlatform = (name: Channel['platformName']): name is Platform =>
  name === 'telegram' || name === 'facebook' || name === 'whatsapp'

/**
 * How the agent answers in one conversation of the channel: Telegram's sendMessage, Messenger's Send API
 * (`messaging_type: RESPONSE`, typing_on meanwhile) or a WhatsApp Cloud API text message. WhatsApp shows typing
 * only while marking the person's message read, which we do not do on their behalf: no indicator there.
 */
function senderFor(deps: ReplyDeps, channel: Channel, token: string, chatId: string): Sender {
  switch (channel.platformName) {
    case 'facebook': {
      const pageId = channel.platformChannelId
      return {
        platform: 'facebook',
        limit: PLATFORM_TEXT_LIMITS.facebook,
        typing: () => deps.graph.sendMessengerTyping(token, pageId, chatId),
        async send(text) {
          const { messageId } = await deps.graph.sendMessengerText(token, pageId, {
            recipientId: chatId,
            text,
          })
          return { platformMessageId: messageId }
        },
      }
    }
    case 'whatsapp': {
      const phoneNumberId = channel.platformChannelId
      return {
        platform: 'whatsapp',
        limit: PLATFORM_TEXT_LIMITS.whatsapp,
        typing: async () => undefined,
        async send(text) {
          const { messageId } = await deps.graph.sendWhatsAppText(token, phoneNumberId, { to: chatId, text })
          return { platformMessageId: messageId }
        },
      }
    }
    default:
      return {
        platform: 'telegram',
        limit: PLATFORM_TEXT_LIMITS.telegram,
        typing: () => deps.telegram.sendChatAction(token, { chatId, action: 'typing' }),
        async send(text) {
          const { messageId } = await deps.telegram.sendMessage(token, { chatId, text })
          return { platformMessageId: `${chatId}:${messageId}` }
        },
      }
  }
}

/**
 * The conversation up to `inbound`, oldest first, as the model reads it (see promptRows), trimmed from the oldest
 * to the token budget. It ends with `inbound`. The reply itself reads it with its context (loadContext).
 */
export async function loadPromptMessages(
  db: Database,
  inbound: Pick<Message, 'conversationId' | 'sequence'>,
  window: number,
  budgetTokens = PROMPT_HISTORY_TOKEN_BUDGET,
): Promise<ChatMessage[]> {
  const [row] = rowsOf<{ prompt: PromptRow[] }>(
    await db.execute(
      sql`select ${promptRows(sql`${inbound.conversationId}::uuid`, sql`${inbound.sequence}`, sql`${Math.max(1, window)}`)} as prompt`,
    ),
  )
  return promptOf(row.prompt, budgetTokens)
}

/** The prompt rows (newest first) as the model's messages, oldest first, within the token budget. */
function promptOf(rows: PromptRow[], budgetTokens = PROMPT_HISTORY_TOKEN_BUDGET): ChatMessage[] {
  return trimToBudget([...rows].reverse(), budgetTokens)
}

/** Keeps the newest messages that fit the budget (always the last one), and starts with the customer's turn. */
export function trimToBudget(
  rows: { direction: Message['direction']; text: string }[],
  budgetTokens: number,
): ChatMessage[] {
  const kept: ChatMessage[] = []
  let used = 0
  for (let i = rows.length - 1; i >= 0; i--) {
    const cost = estimateTokens(rows[i].text)
    if (kept.length > 0 && used + cost > budgetTokens) break
    used += cost
    kept.unshift({ role: rows[i].direction === 'inbound' ? 'user' : 'assistant', content: rows[i].text })
  }
  while (kept.length > 1 && kept[0].role === 'assistant') kept.shift()
  return kept
}

function abortableSleep(signal: AbortSignal | undefined) {
  return (ms: number) => sleepFor(ms, undefined, { signal })
}

async function withRetries<T>(deps: ReplyDeps, sender: Sender, what: string, fn: () => Promise<T>) {
  try {
    return await withPlatformRetries(
      async () => {
        try {
          return await fn()
        } catch (error) {
          if (error instanceof ModelError && error.retryable)
            throw new RetryableModelError(sender.platform, error)
          throw error
        }
      },
      {
        maxRetryAfterMs: MAX_SLEPT_RETRY_AFTER_MS,
        sleep: abortableSleep(deps.signal),
        ...deps.retry,
        onRetry: ({ error, attempt, delayMs }) =>
          deps.logger.info('reply: retrying', { what, attempt, delayMs, reason: error.message }),
      },
    )
  } catch (error) {
    throw error instanceof RetryableModelError ? error.modelError : error
  }
}

/**
 * "typing..." while `work` runs, once it has taken TYPING_DELAY_MS: an answer faster than that needs no indicator
 * (and spares the platform a call, which counts against the bot's rate limits). A failed indicator is ignored:
 * a refusal that matters (an invalid token, a blocked bot) meets the send too, which reports it.
 */
async function whileTyping<T>(sender: Sender, work: () => Promise<T>): Promise<T> {
  let renew: NodeJS.Timeout | undefined
  const typing = () => void sender.typing().catch(() => undefined)
  const start = setTimeout(() => {
    typing()
    renew = setInterval(typing, TYPING_RENEW_MS)
  }, TYPING_DELAY_MS)
  try {
    return await work()
  } finally {
    clearTimeout(start)
    clearInterval(renew)
  }
}

/** Calls the agent's model on the conversation and stores the run and its answer (pending) in one statement. */
async function generateReply(deps: ReplyDeps, context: ReplyContext, agent: Agent, sender: Sender) {
  const { message: inbound, channel, conversation } = context
  const { run, output } = await whileTyping(sender, () =>
    withRetries(deps, sender, 'model', () =>
      callAgentModel({
        db: deps.db,
        agent,
        messages: promptOf(context.prompt),
        testMode: false,
        context: {
          platform: channel.platformName,
          channelId: channel.id,
          conversationId: conversation.id,
          messageId: inbound.id,
        },
        models: deps.models,
        signal: deps.signal,
      }),
    ),
  )
  const text = output.trim()
  if (!text) {
    await recordRun(deps.db, run)
    return undefined
  }
  const [created] = await queriesFor(deps.db).insertAnswer.execute({
    ...run,
    channelId: inbound.channelId,
    conversationId: inbound.conversationId,
    senderId: channel.platformChannelId,
    senderName: agent.name,
    text,
    replyToMessageId: inbound.id,
  })
  return created ?? (await findReply(deps.db, inbound.id))
}

/**
 * Sends the parts not sent yet, each with the retry policy. Each part the platform accepted is recorded at once
 * (`sent_parts`), the last one in the same statement that marks the answer sent and the message replied: a
 * worker that dies mid-reply resends at most the part whose acceptance it had not recorded yet (ADR 021).
 */
async function deliver(deps: ReplyDeps, inboundId: string, reply: Message, sender: Sender) {
  const parts = splitMessage(reply.text, sender.limit)
  let platformMessageId = reply.platformMessageId
  for (let index = reply.sentParts; index < parts.length; index++) {
    const sent = await withRetries(deps, sender, 'send', () => sender.send(parts[index]))
    platformMessageId ??= sent.platformMessageId
    if (index === parts.length - 1) {
      return recordReplied(deps.db, inboundId, reply.id, { sentParts: parts.length, platformMessageId })
    }
    await deps.db
      .update(messages)
      .set({ sentParts: index + 1, platformMessageId })
      .where(eq(messages.id, reply.id))
  }
  await recordReplied(deps.db, inboundId, reply.id)
}

/**
 * The answer sent (with the progress of its last part, when given) and its message replied, in one statement:
 * no state in between for a crash to leave behind, and one round trip. `platform_sent_at` takes the database's
 * clock: when the send was recorded, the end of the window in which a crash would duplicate it.
 */
async function recordReplied(
  db: Database,
  inboundId: string,
  replyId: string,
  progress?: Pick<Message, 'sentParts' | 'platformMessageId'>,
) {
  if (progress) {
    await queriesFor(db).recordLastPart.execute({ inboundId, replyId, ...progress })
    return
  }
  const sent = db.$with('sent').as(
    db
      .update(messages)
      .set({ status: 'sent', platformSentAt: sql`statement_timestamp()`, failureReason: null })
      .where(and(eq(messages.id, replyId), eq(messages.status, 'pending')))
      .returning({ id: messages.id }),
  )
  // PostgreSQL runs a data-modifying WITH to completion whether or not the main statement reads it.
  await db
    .with(sent)
    .update(messages)
    .set({ status: 'replied', failureReason: null })
    .where(and(eq(messages.id, inboundId), eq(messages.status, 'queued')))
}

async function markNotAnswered(db: Database, inboundId: string, reason: string) {
  await db
    .update(messages)
    .set({ status: 'received', failureReason: reason })
    .where(and(eq(messages.id, inboundId), eq(messages.status, 'queued')))
}

/**
 * After the last try: the message (and its pending answer) failed with the reason. A platform that says the token
 * is invalid also puts the channel in error, so that the Channels screen shows it.
 */
export async function markReplyFailed(
  db: Database,
  inboundId: string,
  reason: string,
  channelError?: { channelId: string; reason: string },
) {
  await db.transaction(async (tx) => {
    await tx
      .update(messages)
      .set({ status: 'failed', failureReason: reason })
      .where(and(eq(messages.id, inboundId), eq(messages.status, 'queued')))
    await tx
      .update(messages)
      .set({ status: 'failed', failureReason: reason })
      .where(
        and(
          eq(messages.replyToMessageId, inboundId),
          eq(messages.direction, 'outbound'),
          eq(messages.status, 'pending'),
        ),
      )
    if (channelError) {
      await tx
        .update(channels)
        .set({ status: 'error', statusReason: channelError.reason, updatedAt: new Date() })
        .where(eq(channels.id, channelError.channelId))
    }
  })
}

/** What the organization reads on a failed message: the error, and a platform's wait we did not sit out. */
function failureReason(error: PlatformError | ModelError): string {
  if (!(error instanceof PlatformError)) return error.message
  const { retryAfterMs } = error
  if (retryAfterMs === undefined || retryAfterMs <= MAX_SLEPT_RETRY_AFTER_MS) return error.message
  const platform = PLATFORM_LABELS[error.platform]
  const limit = MAX_SLEPT_RETRY_AFTER_MS / 60_000
  return `${error.message}: ${platform} asked to wait ${Math.ceil(retryAfterMs / 1000)} s, longer than the ${limit} minutes a reply waits`
}

/**
 * Runs `work` with the conversation's sender; a model or platform failure that outlived its retries is recorded
 * on the message (an invalid token also puts the channel in error). Anything else is thrown.
 */
async function attempt(
  deps: ReplyDeps,
  { message: inbound, channel, conversation }: ReplyContext,
  work: (sender: Sender) => Promise<ReplyOutcome>,
): Promise<ReplyOutcome> {
  try {
    const token = decryptSecret(channel.accessTokenEncrypted ?? '', deps.encryptionKey)
    return await work(senderFor(deps, channel, token, conversation.platformChatId))
  } catch (error) {
    if (!(error instanceof PlatformError) && !(error instanceof ModelError)) throw error
    const tokenInvalid = error instanceof PlatformError && error.code === 'AUTH_TOKEN_INVALID'
    const reason = tokenInvalid ? REPLY_FAILURES.tokenInvalid : failureReason(error)
    await markReplyFailed(
      deps.db,
      inbound.id,
      reason,
      tokenInvalid ? { channelId: channel.id, reason: error.message } : undefined,
    )
    deps.logger.warn('reply failed', { messageId: inbound.id, channelId: channel.id, reason })
    return { outcome: 'failed', reason }
  }
}

/**
 * The reply to one inbound message: checks that the channel's agent answers, asks the model with the recent
 * conversation, stores the answer, sends it (split at the platform's limit, "typing..." meanwhile), and records
 * each state. Safe to run again for the same message: a handled message is skipped, and an answer already
 * stored is sent (from the first part not yet sent) rather than asked for again. Model and platform failures
 * are retried with the spec's policy, then recorded on the message; anything else (the database, an abort) is
 * thrown for the job queue to retry.
 */
export async function replyToMessage(deps: ReplyDeps, messageId: string): Promise<ReplyOutcome> {
  const context = await loadContext(deps.db, messageId, deps.conversationWindow)
  if (!context || context.message.direction !== 'inbound') {
    return { outcome: 'skipped', reason: 'The message no longer exists' }
  }
  const result = await answerMessage(deps, context)
  const platform = isReplyPlatform(context.channel.platformName) ? context.channel.platformName : 'unknown'
  if (result.outcome === 'replied' && result.sentNow) {
    const receivedAt = context.message.receivedAt ?? context.message.createdAt
    const pipelineSeconds = (Date.now() - receivedAt.getTime()) / 1000
    recordReply(platform, { kind: 'sent', pipelineSeconds })
  } else if (result.outcome === 'failed') {
    recordReply(platform, { kind: 'failed' })
  } else if (result.outcome === 'not-answered') {
    recordReply(platform, { kind: 'not-answered' })
  }
  return result
}

async function answerMessage(deps: ReplyDeps, context: ReplyContext): Promise<ReplyOutcome> {
  const { message: inbound, channel, agent, reply: stored } = context
  if (inbound.status !== 'queued') return { outcome: 'skipped', reason: `The message is ${inbound.status}` }

  if (stored?.status === 'failed') {
    const reason = stored.failureReason ?? 'The answer could not be sent'
    await markReplyFailed(deps.db, inbound.id, reason)
    return { outcome: 'failed', reason }
  }
  if (stored && stored.status !== 'pending') {
    await recordReplied(deps.db, inbound.id, stored.id)
    return { outcome: 'replied', outboundId: stored.id, sentNow: false }
  }
  if (stored) {
    return attempt(deps, context, async (sender) => {
      await deliver(deps, inbound.id, stored, sender)
      return { outcome: 'replied', outboundId: stored.id, sentNow: true }
    })
  }

  const verdict = answeringAgent(channel, agent)
  if ('reason' in verdict) {
    await markNotAnswered(deps.db, inbound.id, verdict.reason)
    return { outcome: 'not-answered', reason: verdict.reason }
  }
  return attempt(deps, context, async (sender) => {
    const reply = await generateReply(deps, context, verdict.agent, sender)
    if (!reply) {
      await markReplyFailed(deps.db, inbound.id, REPLY_FAILURES.emptyAnswer)
      return { outcome: 'failed', reason: REPLY_FAILURES.emptyAnswer }
    }
    await deliver(deps, inbound.id, reply, sender)
    return { outcome: 'replied', outboundId: reply.id, sentNow: true }
  })
}
