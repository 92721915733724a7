import type { Agent, Channel, Message } from '~/db/schema'
import type { ModelClient } from '~/integrations/llm/model.server'
import { ModelError } from '~/integrations/llm/model.server'
import { PlatformError } from '~/integrations/platform-errors'
import { officeHoursAt } from '~/lib/agents/behaviour'
import { builtInTextFor } from '~/lib/agents/built-in-texts'
import { hasDeadToken } from '~/lib/channels/health'
import { MESSAGE_KIND_LABELS } from '~/lib/conversations/conversations'
import { ATTENTION_REASONS, REPLY_FAILURES, splitMessage } from '~/lib/conversations/reply-pipeline'
import { callAgentModel, knowledgeMissRun, recordRun } from '~/services/agents/run-agent.server'
import { foundNoAnswer, groundQuestion } from '~/services/knowledge/agent-knowledge.server'
import type { KnowledgeEmbeddings } from '~/services/knowledge/embeddings.server'
import type { KnowledgeHit } from '~/lib/knowledge/knowledge'
import { decryptSecret } from '~/utils/crypto.server'
import { recordReply } from '~/utils/metrics.server'
import type { Database } from '~/db/client.server'
import { readBurstMedia, type MediaReaders } from './media.server'
import { promptOf } from './prompt.server'
import { sendNotice } from './notices.server'
import {
  handOver,
  hasNewerQueued,
  isConversationPaused,
  loadReplyContext,
  markAnswerWithheld,
  markAttention,
  markNotAnswered,
  markReplyFailed,
  recordOutOfHoursNotice,
  recordReplied,
  recordSentParts,
  storeAnswer,
  type Inbound,
  type ReplyContext,
} from './queries.server'
import { failureReason, withReplyRetries, type ReplyRetryOptions } from './retries.server'
import { isReplyPlatform, senderFor, whileTyping, type Sender, type SenderClients } from './senders.server'

// The reply state machine: which state a message is in and what comes next. Its statements are in
// queries.server, the platforms' sends in senders.server, the retry policy in retries.server.

export type ReplyDeps = SenderClients &
  ReplyRetryOptions & {
    db: Database
    models: Pick<ModelClient, 'generate'>
    /** The knowledge's embedding model, when one is configured (the question's grounding fuses vectors). */
    embeddings?: KnowledgeEmbeddings
    encryptionKey: string
    /** How many messages of the conversation go into the prompt. */
    conversationWindow: number
    /** The clock office hours are read with (tests fix it). */
    now?: () => Date
    /** Customers' voice notes, photos and documents are read when set (docs/decisions/074). */
    media?: MediaReaders
  }

export type ReplyOutcome =
  /** `sentNow`: this run sent it (false when an earlier run had sent it and only its state was left). */
  | { outcome: 'replied'; outboundId: string; sentNow: boolean }
  /** Stored, and left to a person: no agent to answer (the reason is on the message). */
  | { outcome: 'not-answered'; reason: string }
  | { outcome: 'failed'; reason: string }
  /**
   * Nothing to do: the message is gone (its channel was deleted), was handled by an earlier run, or is part of a
   * burst that a later message answers (the customer wrote again: the answer waits for them, or is not sent).
   */
  | { outcome: 'skipped'; reason: string }

/** The agent that answers on the channel, or why none does (spec section 4, agent assignment on a channel). */
function answeringAgent(channel: Channel, agent: Agent | null): { agent: Agent } | { reason: string } {
  if (!channel.agentId || !agent) return { reason: 'No agent is assigned to this channel' }
  if (!channel.agentEnabled) return { reason: 'The agent is disabled on this channel' }
  if (agent.status !== 'active') return { reason: `The agent is ${agent.status}` }
  // The platform refused the token (a health check, a send, a poll): no send is attempted, a person is told.
  if (hasDeadToken(channel)) return { reason: REPLY_FAILURES.tokenInvalid }
  if (channel.status !== 'active') return { reason: `The channel is not active (${channel.status})` }
  if (!isReplyPlatform(channel.platformName)) {
    return { reason: `Replies on ${channel.platformName} are not supported` }
  }
  if (!channel.accessTokenEncrypted) return { reason: 'The channel has no access token' }
  return { agent }
}

/** The messages this reply settles: the customer's burst ending with the message. */
export const inboundOf = ({ message, burst }: ReplyContext): Inbound => ({
  id: message.id,
  burst: burst.some((row) => row.id === message.id) ? burst.map((row) => row.id) : [message.id],
})

const BURST_ANSWERED_LATER = 'The customer wrote again: a later message answers this burst'

/**
 * Calls the agent's model on the conversation and stores the run and its answer (pending) in one statement. With
 * a burst wait, an answer is not stored when the customer wrote again meanwhile (the run is): their next message
 * answers them all (`superseded`). A handoff stores the agent's handoff message as the answer.
 */
async function generateReply(
  deps: ReplyDeps,
  context: ReplyContext,
  agent: Agent,
  sender: Sender,
  /** Undefined: knowledge plays no part (see callAgentModel). */
  knowledge: KnowledgeHit[] | undefined,
) {
  const { message: inbound, channel, conversation } = context
  const { run, output, handoff } = await whileTyping(sender, () =>
    withReplyRetries(deps, sender.platform, 'model', () =>
      callAgentModel({
        db: deps.db,
        agent,
        messages: promptOf(context.prompt),
        knowledge,
        language: conversation.language,
        testMode: false,
        context: {
          platform: channel.platformName,
          channelId: channel.id,
          conversationId: conversation.id,
          messageId: inbound.id,
          ...(context.burst.length > 1 && { burst: context.burst.map((row) => row.id) }),
        },
        models: deps.models,
        signal: deps.signal,
      }),
    ),
  )
  const text = handoff
    ? builtInTextFor('handoff', agent.handoffMessage, agent, conversation.language).trim()
    : output.trim()
  if (agent.burstWaitSeconds > 0 && (await hasNewerQueued(deps.db, inbound))) {
    await recordRun(deps.db, run)
    return { superseded: true as const }
  }
  if (foundNoAnswer({ output, handoff }, knowledge)) {
    // A person who took over while the model was answering gets the messages without a notice sent over them; the
    // run says its notice was withheld, as an answer withheld is kept failed with why.
    const paused = await isConversationPaused(deps.db, conversation.id)
    const miss = knowledgeMissRun(run, agent, conversation.language)
    await recordRun(deps.db, paused ? { ...miss, context: { ...miss.context, withheld: true } } : miss)
    return paused ? { paused: true as const } : { noAnswer: true as const }
  }
  if (!text) {
    await recordRun(deps.db, run)
    return undefined
  }
  const reply = await storeAnswer(deps.db, run, {
    channelId: inbound.channelId,
    conversationId: inbound.conversationId,
    senderId: channel.platformChannelId,
    senderName: agent.name,
    text,
    replyToMessageId: inbound.id,
  })
  return reply && { reply, handoff: handoff?.reason ?? null }
}

/**
 * Sends the parts not sent yet, each with the retry policy. Each part the platform accepted is recorded at once
 * (`sent_parts`), the last one in the same statement that marks the answer sent and the burst replied: a
 * worker that dies mid-reply resends at most the part whose acceptance it had not recorded yet (ADR 021).
 */
async function deliver(deps: ReplyDeps, inbound: Inbound, reply: Message, sender: Sender) {
  const parts = splitMessage(reply.text, sender.limit)
  let platformMessageId = reply.platformMessageId
  for (let index = reply.sentParts; index < parts.length; index++) {
    const sent = await withReplyRetries(deps, sender.platform, 'send', () => sender.send(parts[index]))
    platformMessageId ??= sent.platformMessageId
    if (index === parts.length - 1) {
      return recordReplied(deps.db, inbound, reply.id, { sentParts: parts.length, platformMessageId })
    }
    await recordSentParts(deps.db, reply.id, { sentParts: index + 1, platformMessageId })
  }
  await recordReplied(deps.db, inbound, reply.id)
}

/**
 * The agent's fallback when the model failed (or answered nothing) after its retries: the customer is told,
 * unless the agent is set to say nothing; a failure to send it is logged, the message's own failure stands.
 */
async function sendFallback(deps: ReplyDeps, context: ReplyContext, sender: Sender) {
  if (!context.agent?.fallbackMessage.trim()) return
  try {
    await sendNotice(deps, context, sender, {
      kind: 'fallback',
      key: context.message.id,
      text: context.agent.fallbackMessage,
    })
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error
    deps.logger.warn('fallback message not sent', { messageId: context.message.id, reason: error.message })
  }
}

/**
 * Runs `work` with the conversation's sender; a model or platform failure that outlived its retries is recorded
 * on the burst (an invalid token also puts the channel in error), and a model failure sends the agent's fallback
 * message. Anything else is thrown.
 */
async function attempt(
  deps: ReplyDeps,
  context: ReplyContext,
  work: (sender: Sender, token: string) => Promise<ReplyOutcome>,
): Promise<ReplyOutcome> {
  const { message: inbound, channel, conversation } = context
  let sender: Sender | undefined
  try {
    const token = decryptSecret(channel.accessTokenEncrypted ?? '', deps.encryptionKey)
    sender = senderFor(deps, channel, token, conversation.platformChatId)
    return await work(sender, token)
  } catch (error) {
    if (!(error instanceof PlatformError) && !(error instanceof ModelError)) throw error
    const tokenInvalid = error instanceof PlatformError && error.code === 'AUTH_TOKEN_INVALID'
    const reason = tokenInvalid ? REPLY_FAILURES.tokenInvalid : failureReason(error)
    if (error instanceof ModelError && sender) await sendFallback(deps, context, sender)
    await markReplyFailed(
      deps.db,
      inboundOf(context),
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
 * each state. With a burst wait, a message that the customer followed with another is answered with that one
 * (one answer for the burst). Safe to run again for the same message: a handled message is skipped, and an
 * answer already stored is sent (from the first part not yet sent) rather than asked for again. Model and
 * platform failures are retried with the spec's policy, then recorded on the message (and the agent's fallback
 * sent); anything else (the database, an abort) is thrown for the job queue to retry.
 */
export async function replyToMessage(deps: ReplyDeps, messageId: string): Promise<ReplyOutcome> {
  return (await replyWithContext(deps, messageId)).result
}

/** replyToMessage, with the context it was answered from (undefined when the message is gone). */
export async function replyWithContext(
  deps: ReplyDeps,
  messageId: string,
): Promise<{ result: ReplyOutcome; context: ReplyContext | undefined }> {
  const context = await loadReplyContext(deps.db, messageId, deps.conversationWindow)
  if (!context || context.message.direction !== 'inbound') {
    return { result: { outcome: 'skipped', reason: 'The message no longer exists' }, context: undefined }
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
  return { result, context }
}

async function answerMessage(deps: ReplyDeps, context: ReplyContext): Promise<ReplyOutcome> {
  const { message: inbound, channel, conversation, agent, reply: stored } = context
  if (inbound.status !== 'queued') return { outcome: 'skipped', reason: `The message is ${inbound.status}` }
  const burstWait = agent?.burstWaitSeconds ?? 0

  if (stored?.status === 'failed') {
    const reason = stored.failureReason ?? 'The answer could not be sent'
    await markReplyFailed(deps.db, inboundOf(context), reason)
    return { outcome: 'failed', reason }
  }
  if (stored && stored.status !== 'pending') {
    await recordReplied(deps.db, inboundOf(context), stored.id)
    if (context.replyHandoff)
      await handOver(deps.db, conversation.id, ATTENTION_REASONS.handoff(context.replyHandoff))
    return { outcome: 'replied', outboundId: stored.id, sentNow: false }
  }
  if (conversation.aiPausedAt && !(stored && context.replyHandoff)) {
    // A person took over: a queued message is left to them, and an answer not sent yet stays unsent.
    if (stored) await markAnswerWithheld(deps.db, inboundOf(context), stored.id)
    else await markNotAnswered(deps.db, inboundOf(context), REPLY_FAILURES.aiPaused)
    return { outcome: 'not-answered', reason: REPLY_FAILURES.aiPaused }
  }
  if (stored) {
    // An earlier run stored this answer and died: it is sent as stored even when the customer has written since
    // (their new messages get an answer of their own next). Nothing tells whether the dead run's send reached the
    // platform; dropping the answer would answer the burst a second time, merged with the new lines, and lose the
    // record of what the customer saw (ADR 021: a stored answer is resent as stored).
    return attempt(deps, context, async (sender) => {
      if (context.replyHandoff) {
        await handOver(deps.db, conversation.id, ATTENTION_REASONS.handoff(context.replyHandoff))
      }
      await deliver(deps, inboundOf(context), stored, sender)
      return { outcome: 'replied', outboundId: stored.id, sentNow: true }
    })
  }

  const verdict = answeringAgent(channel, agent)
  if ('reason' in verdict) {
    // A channel in error leaves every conversation that writes to it to a person: each one is marked.
    const attention =
      channel.status === 'active' && !hasDeadToken(channel)
        ? undefined
        : { conversationId: conversation.id, reason: verdict.reason }
    await markNotAnswered(deps.db, inboundOf(context), verdict.reason, attention)
    return { outcome: 'not-answered', reason: verdict.reason }
  }
  if (burstWait > 0 && context.newerQueued) {
    // The customer is still writing: the burst's last message answers it all.
    return { outcome: 'skipped', reason: BURST_ANSWERED_LATER }
  }
  return attempt(deps, context, async (sender, token) => {
    // The burst's media are read first: the answer reads their text (ADR 074). The customer sees "typing..."
    // meanwhile, as while the model writes.
    if (await whileTyping(sender, () => readBurstMedia(deps, context, token))) {
      const read = await loadReplyContext(deps.db, inbound.id, deps.conversationWindow)
      if (!read) return { outcome: 'skipped', reason: 'The message no longer exists' }
      return answerReadBurst(deps, read, verdict.agent, sender)
    }
    return answerReadBurst(deps, context, verdict.agent, sender)
  })
}

/** The answer to a burst whose media are read (or unreadable): office hours, then the model. */
async function answerReadBurst(
  deps: ReplyDeps,
  context: ReplyContext,
  agent: Agent,
  sender: Sender,
): Promise<ReplyOutcome> {
  const { conversation } = context
  const closed = await outsideOfficeHours(deps, context, agent, sender)
  if (closed) return closed
  const unreadable = await unreadableBurst(deps, context, agent, sender)
  if (unreadable) return unreadable

  const grounding = await groundQuestion(deps.db, agent, lastCustomerTurn(context), deps.embeddings, {
    ready: context.knowledgeReady,
    customerWords: context.customerWords,
  })
  const knowledge = grounding.kind === 'passages' ? grounding.hits : undefined
  const generated = await generateReply(deps, context, agent, sender, knowledge)
  if (generated && 'superseded' in generated) return { outcome: 'skipped', reason: BURST_ANSWERED_LATER }
  if (generated && 'noAnswer' in generated) return knowledgeMiss(deps, context, agent, sender)
  if (generated && 'paused' in generated) {
    await markNotAnswered(deps.db, inboundOf(context), REPLY_FAILURES.aiPaused)
    return { outcome: 'not-answered', reason: REPLY_FAILURES.aiPaused }
  }
  if (!generated) {
    await sendFallback(deps, context, sender)
    await markReplyFailed(deps.db, inboundOf(context), REPLY_FAILURES.emptyAnswer)
    return { outcome: 'failed', reason: REPLY_FAILURES.emptyAnswer }
  }
  const { reply, handoff } = generated
  if (reply.conversationPaused && !handoff) {
    await markAnswerWithheld(deps.db, inboundOf(context), reply.id)
    return { outcome: 'not-answered', reason: REPLY_FAILURES.aiPaused }
  }
  if (handoff) await handOver(deps.db, conversation.id, ATTENTION_REASONS.handoff(handoff))
  await deliver(deps, inboundOf(context), reply, sender)
  return { outcome: 'replied', outboundId: reply.id, sentNow: true }
}

/**
 * Outside the agent's office hours, set to leave it to a person: the out-of-hours message goes out once per
 * conversation per closed period, the burst is stored as left to a person, and the conversation needs attention.
 * Undefined when the agent answers now (no office hours, open, or set to answer as usual).
 */
async function outsideOfficeHours(
  deps: ReplyDeps,
  context: ReplyContext,
  agent: Agent,
  sender: Sender,
): Promise<ReplyOutcome | undefined> {
  const hours = agent.officeHours
  if (!hours || hours.outsideHours !== 'message') return undefined
  const now = deps.now?.() ?? new Date()
  const state = officeHoursAt(hours, now)
  if (state.open) return undefined
  const { conversation } = context
  const told = conversation.outOfHoursNoticeAt
  if (!told || told.getTime() < state.closedSince.getTime()) {
    await sendNotice(deps, context, sender, {
      kind: 'out-of-hours',
      key: state.closedSince.toISOString(),
      text: hours.message,
    })
    await recordOutOfHoursNotice(deps.db, conversation.id, ATTENTION_REASONS.outOfHours, now)
  }
  await markNotAnswered(deps.db, inboundOf(context), REPLY_FAILURES.outOfHours)
  return { outcome: 'not-answered', reason: REPLY_FAILURES.outOfHours }
}

/**
 * A burst of things the agent cannot read (photos, files, voice notes without a transcription model...): it says
 * once that it reads only text, and the conversation needs attention. A voice note it could not read (too large,
 * gone, not audio, the transcription failed) gets the agent's fallback instead, with the reason on the message:
 * "I read only text" would not be true. A burst that also holds something read is answered by the model (the
 * prompt shows the others as "[photo]"), with the conversation marked too: a person should look at the rest.
 */
async function unreadableBurst(
  deps: ReplyDeps,
  context: ReplyContext,
  agent: Agent,
  sender: Sender,
): Promise<ReplyOutcome | undefined> {
  const rows = context.burst.length ? context.burst : [context.message]
  const unreadable = rows.filter((row) => row.kind !== 'text' && row.media?.state !== 'read')
  if (unreadable.length === 0) return undefined
  const labels = [...new Set(unreadable.map((row) => MESSAGE_KIND_LABELS[row.kind]))]
  await markAttention(deps.db, context.conversation.id, ATTENTION_REASONS.unreadable(labels))
  if (unreadable.length < rows.length) return undefined
  const failed = unreadable.find((row) => row.media?.state === 'failed')?.media?.reason
  if (failed) {
    await sendFallback(deps, context, sender)
    await markReplyFailed(deps.db, inboundOf(context), failed)
    return { outcome: 'failed', reason: failed }
  }
  await sendNotice(deps, context, sender, {
    kind: 'unreadable',
    key: context.message.id,
    text: agent.unreadableMessage,
  })
  await markNotAnswered(deps.db, inboundOf(context), REPLY_FAILURES.unreadable)
  return { outcome: 'not-answered', reason: REPLY_FAILURES.unreadable }
}

/** What the customer asked: their last turn (a burst's lines together). */
function lastCustomerTurn(context: ReplyContext): string {
  const last = promptOf(context.prompt).at(-1)
  return last?.role === 'user' ? last.content : context.message.text
}

/**
 * The model found the answer neither in the passages that matched (if any) nor in the agent's instructions: it said
 * NO_ANSWER (docs/decisions/070). The agent's no-answer message goes out once, the messages are left to a person,
 * the conversation needs attention.
 */
async function knowledgeMiss(
  deps: ReplyDeps,
  context: ReplyContext,
  agent: Agent,
  sender: Sender,
): Promise<ReplyOutcome> {
  await sendNotice(deps, context, sender, {
    kind: 'no-knowledge',
    key: context.message.id,
    text: agent.knowledgeNoAnswerMessage,
  })
  await markNotAnswered(deps.db, inboundOf(context), REPLY_FAILURES.noKnowledge, {
    conversationId: context.conversation.id,
    reason: ATTENTION_REASONS.noKnowledge(lastCustomerTurn(context)),
  })
  return { outcome: 'not-answered', reason: REPLY_FAILURES.noKnowledge }
}
