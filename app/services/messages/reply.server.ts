import type { Agent, Channel, Message } from '~/db/schema'
import type { ModelClient } from '~/integrations/llm/model.server'
import { ModelError } from '~/integrations/llm/model.server'
import { PlatformError } from '~/integrations/platform-errors'
import { REPLY_FAILURES, splitMessage } from '~/lib/reply-pipeline'
import { callAgentModel, recordRun } from '~/services/agents/run-agent.server'
import { decryptSecret } from '~/utils/crypto.server'
import { recordReply } from '~/utils/metrics.server'
import type { Database } from '~/db/client.server'
import { promptOf } from './reply-prompt.server'
import {
  loadReplyContext,
  markAnswerWithheld,
  markNotAnswered,
  markReplyFailed,
  recordReplied,
  recordSentParts,
  storeAnswer,
  type ReplyContext,
} from './reply-queries.server'
import { failureReason, withReplyRetries, type ReplyRetryOptions } from './reply-retries.server'
import {
  isReplyPlatform,
  senderFor,
  whileTyping,
  type Sender,
  type SenderClients,
} from './reply-senders.server'

// The reply state machine: which state a message is in and what comes next. Its statements are in
// reply-queries, the platforms' sends in reply-senders, the retry policy in reply-retries.

export type ReplyDeps = SenderClients &
  ReplyRetryOptions & {
    db: Database
    models: Pick<ModelClient, 'generate'>
    encryptionKey: string
    /** How many messages of the conversation go into the prompt. */
    conversationWindow: number
  }

export type ReplyOutcome =
  /** `sentNow`: this run sent it (false when an earlier run had sent it and only its state was left). */
  | { outcome: 'replied'; outboundId: string; sentNow: boolean }
  /** Stored, and left to a person: no agent to answer (the reason is on the message). */
  | { outcome: 'not-answered'; reason: string }
  | { outcome: 'failed'; reason: string }
  /** Nothing to do: the message is gone (its channel was deleted) or was handled by an earlier run. */
  | { outcome: 'skipped'; reason: string }

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

/** Calls the agent's model on the conversation and stores the run and its answer (pending) in one statement. */
async function generateReply(deps: ReplyDeps, context: ReplyContext, agent: Agent, sender: Sender) {
  const { message: inbound, channel, conversation } = context
  const { run, output } = await whileTyping(sender, () =>
    withReplyRetries(deps, sender.platform, 'model', () =>
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
  return storeAnswer(deps.db, run, {
    channelId: inbound.channelId,
    conversationId: inbound.conversationId,
    senderId: channel.platformChannelId,
    senderName: agent.name,
    text,
    replyToMessageId: inbound.id,
  })
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
    const sent = await withReplyRetries(deps, sender.platform, 'send', () => sender.send(parts[index]))
    platformMessageId ??= sent.platformMessageId
    if (index === parts.length - 1) {
      return recordReplied(deps.db, inboundId, reply.id, { sentParts: parts.length, platformMessageId })
    }
    await recordSentParts(deps.db, reply.id, { sentParts: index + 1, platformMessageId })
  }
  await recordReplied(deps.db, inboundId, reply.id)
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
  const context = await loadReplyContext(deps.db, messageId, deps.conversationWindow)
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
  const { message: inbound, channel, conversation, agent, reply: stored } = context
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
  if (conversation.aiPausedAt) {
    // A person took over: a queued message is left to them, and an answer not sent yet stays unsent.
    if (stored) await markAnswerWithheld(deps.db, inbound.id, stored.id)
    else await markNotAnswered(deps.db, inbound.id, REPLY_FAILURES.aiPaused)
    return { outcome: 'not-answered', reason: REPLY_FAILURES.aiPaused }
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
    if (reply.conversationPaused) {
      await markAnswerWithheld(deps.db, inbound.id, reply.id)
      return { outcome: 'not-answered', reason: REPLY_FAILURES.aiPaused }
    }
    await deliver(deps, inbound.id, reply, sender)
    return { outcome: 'replied', outboundId: reply.id, sentNow: true }
  })
}
