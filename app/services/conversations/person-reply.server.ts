import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { and, eq, sql } from 'drizzle-orm'
import type { z } from 'zod'
import {
  channels,
  conversations,
  messageMedia,
  messages,
  type Channel,
  type Conversation,
  type Message,
} from '~/db/schema'
import { hasDeadToken } from '~/lib/channels/health'
import { ModelError } from '~/integrations/llm/model.server'
import { PlatformError } from '~/integrations/platform-errors'
import type { OutboundFile } from '~/integrations/outbound-file'
import { ATTACHMENT_TEXTS } from '~/lib/conversations/attachments'
import type { MediaSource, MessageMedia } from '~/lib/conversations/media'
import {
  CONVERSATION_TEXTS,
  MESSAGE_KIND_LABELS,
  personReplyWindow,
  type personReplyResultSchema,
} from '~/lib/conversations/conversations'
import { isUuid } from '~/lib/shared/input'
import { REPLY_FAILURES, splitMessage } from '~/lib/conversations/reply-pipeline'
import { jobsIn } from '~/db/jobs.server'
import {
  failureReason,
  isReplyPlatform,
  REPLY_QUEUE,
  replyJobOptions,
  senderFor,
  type ReplyQueue,
  type SenderClients,
} from '~/services/messages/port.server'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { decryptSecret } from '~/utils/crypto.server'
import { AppError } from '~/utils/errors'
import { checkAttachment, type Attachment } from './attachment.server'
import { pauseForPersonReply, type ResumeScheduler } from './takeover.server'

// A person's reply from the inbox: checked against the platform's windows, stored before it is sent (so that a
// form sent twice sends once: the idempotency key is unique in the conversation), the AI paused by it, then
// sent in parts as the AI's answers are.

export type PersonReplyDeps = SenderClients & {
  encryptionKey: string
  scheduleResume: ResumeScheduler
  /** The reply queue, for sending a failed AI answer again. */
  boss: ReplyQueue
}

/** `sentNow` false: the key had been used; this is the message it sent then, and nothing was sent now. */
export type PersonReplyResult = z.output<typeof personReplyResultSchema>

async function conversationWithChannel(scope: OrganizationScope, conversationId: string) {
  if (!isUuid(conversationId)) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
  const [row] = await scope.db
    .select({ conversation: conversations, channel: channels })
    .from(conversations)
    .innerJoin(channels, eq(channels.id, conversations.channelId))
    .where(and(eq(conversations.id, conversationId), eq(conversations.organizationId, scope.organizationId)))
    .limit(1)
  if (!row) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
  return row
}

/** Why a person cannot write on the channel now, if they cannot. */
function requireReachable(channel: Channel, conversation: Conversation) {
  if (!isReplyPlatform(channel.platformName)) {
    throw new AppError('VALIDATION_ERROR', CONVERSATION_TEXTS.unsupportedPlatform(channel.platformName))
  }
  if (channel.status !== 'active') {
    throw new AppError('CONFLICT', CONVERSATION_TEXTS.channelNotActive(channel.status))
  }
  if (!channel.accessTokenEncrypted) throw new AppError('CONFLICT', CONVERSATION_TEXTS.channelNoToken)
  // A health check found the token refused: nothing is attempted (as for the AI's answers).
  if (hasDeadToken(channel)) throw new AppError('CONFLICT', CONVERSATION_TEXTS.channelTokenDead)
  const window = personReplyWindow(channel.platformName, conversation.lastInboundAt)
  if (!window.open) throw new AppError('CONFLICT', window.reason)
  return window
}

const resultColumns = {
  id: messages.id,
  status: messages.status,
  failureReason: messages.failureReason,
  text: messages.text,
  sequence: messages.sequence,
  sentParts: messages.sentParts,
  platformMessageId: messages.platformMessageId,
}
/** What sending needs beyond the result: whether a file goes first. */
const deliveryColumns = { ...resultColumns, kind: messages.kind, media: messages.media }
type Deliverable = Pick<Message, keyof typeof deliveryColumns>

const MEDIA_SOURCES: Record<'telegram' | 'facebook' | 'whatsapp', MediaSource> = {
  telegram: 'telegram',
  facebook: 'messenger',
  whatsapp: 'whatsapp',
}

/** The stored message of a person's reply: its text, or its file with the caption as its text. */
function replyValues(platform: keyof typeof MEDIA_SOURCES, text: string | undefined, file?: OutboundFile) {
  if (!file) return { text: text?.trim() ?? '', kind: 'text' as const, media: null }
  const media: MessageMedia = {
    source: MEDIA_SOURCES[platform],
    ref: '',
    contentType: file.contentType,
    byteSize: file.bytes.byteLength,
    fileName: file.fileName,
    caption: file.caption,
    state: 'read',
  }
  return { text: file.caption ?? MESSAGE_KIND_LABELS[file.kind], kind: file.kind, media }
}

/**
 * Sends a person's text, or a picture or document with its caption, to the customer of the conversation and
 * records it as an outbound message with its author (the file kept beside it, as a customer's is). The same
 * `clientKey` twice (a double submit, a retried API call) sends once: the second call answers the first one's
 * message. A platform's refusal is recorded on the message (failed, with the reason: it can be sent again) and
 * reported; an invalid token also puts the channel in error.
 */
export async function sendPersonReply(
  scope: OrganizationScope,
  deps: PersonReplyDeps,
  input: { conversationId: string; text?: string; clientKey?: string; attachment?: Attachment },
): Promise<PersonReplyResult> {
  const { conversation, channel } = await conversationWithChannel(scope, input.conversationId)
  const clientKey = input.clientKey ?? randomUUID()
  const [existing] = await scope.db
    .select(resultColumns)
    .from(messages)
    .where(and(eq(messages.conversationId, conversation.id), eq(messages.clientKey, clientKey)))
    .limit(1)
  if (existing) return { message: existing, sentNow: false, aiPausedUntil: conversation.aiPausedUntil }

  const window = requireReachable(channel, conversation)
  if (!input.attachment && !input.text?.trim()) {
    throw new AppError('VALIDATION_ERROR', CONVERSATION_TEXTS.textRequired)
  }
  const platform = channel.platformName as keyof typeof MEDIA_SOURCES // requireReachable checked it
  const file = input.attachment && checkAttachment(platform, input.attachment, input.text)
  const stored = await scope.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(messages)
      .values({
        organizationId: scope.organizationId,
        channelId: channel.id,
        conversationId: conversation.id,
        direction: 'outbound',
        senderId: channel.platformChannelId,
        ...replyValues(platform, input.text, file),
        status: 'pending',
        authorUserId: scope.userId,
        clientKey,
      })
      .onConflictDoNothing({
        target: [messages.conversationId, messages.clientKey],
        where: sql`${messages.clientKey} is not null`,
      })
      .returning(deliveryColumns)
    if (!created) return undefined
    if (file) {
      await tx.insert(messageMedia).values({
        messageId: created.id,
        organizationId: scope.organizationId,
        contentType: file.contentType,
        byteSize: file.bytes.byteLength,
        bytes: Buffer.from(file.bytes),
      })
    }
    const aiPausedUntil = await pauseForPersonReply(tx, conversation.id, {
      userId: scope.userId,
      autoResumeMinutes: channel.autoResumeMinutes,
    })
    return { created, aiPausedUntil }
  })
  if (!stored) {
    // The same key at the same moment: the other call stored it, and sends it.
    const [other] = await scope.db
      .select(resultColumns)
      .from(messages)
      .where(and(eq(messages.conversationId, conversation.id), eq(messages.clientKey, clientKey)))
      .limit(1)
    return { message: other, sentNow: false, aiPausedUntil: conversation.aiPausedUntil }
  }
  if (stored.aiPausedUntil) await deps.scheduleResume(conversation.id, stored.aiPausedUntil)
  const message = await deliverPersonReply(scope, deps, channel, conversation, stored.created, {
    messengerTag: window.tag,
    file,
  })
  return { message, sentNow: true, aiPausedUntil: stored.aiPausedUntil }
}

/** How long a person's send waits before its one more try after a network failure. */
export const PERSON_SEND_RETRY_DELAY_MS = 300

/**
 * One send, tried once more after a network failure: a kept-alive connection the platform closed as the request
 * went out fails without having been read. The person is waiting, so not the reply worker's three tries.
 */
async function onceMore<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send()
  } catch (error) {
    if (!(error instanceof PlatformError) || error.code !== 'NETWORK_ERROR') throw error
    await sleep(PERSON_SEND_RETRY_DELAY_MS)
    return send()
  }
}

/** What a reply sends, in order: its file first (with the caption, if the platform takes one that long), then text. */
type Part = { file: true; caption?: string } | { file?: undefined; text: string }

function partsOf(message: Deliverable, sender: ReturnType<typeof senderFor>): Part[] {
  const texts = (text: string) => splitMessage(text, sender.limit).map((part) => ({ text: part }))
  if (!message.media || message.kind === 'text') return texts(message.text)
  const caption = message.media.caption?.trim()
  if (!caption) return [{ file: true }]
  return caption.length <= sender.captionLimit ? [{ file: true, caption }] : [{ file: true }, ...texts(caption)]
}

/** The file of a reply being sent again, as stored; gone when the organization's retention deleted it. */
async function storedFile(scope: OrganizationScope, message: Deliverable): Promise<OutboundFile> {
  const [row] = await scope.db
    .select({ bytes: messageMedia.bytes, contentType: messageMedia.contentType })
    .from(messageMedia)
    .where(and(eq(messageMedia.messageId, message.id), eq(messageMedia.organizationId, scope.organizationId)))
  if (!row || !message.media) throw new AppError('CONFLICT', ATTACHMENT_TEXTS.gone)
  return {
    bytes: row.bytes,
    contentType: row.contentType,
    fileName: message.media.fileName ?? 'file',
    kind: message.kind === 'photo' ? 'photo' : 'file',
  }
}

/** Sends the parts not sent yet; records each accepted part, then the message sent (or failed, with why). */
async function deliverPersonReply(
  scope: OrganizationScope,
  deps: PersonReplyDeps,
  channel: Channel,
  conversation: Conversation,
  message: Deliverable,
  options: { messengerTag: 'HUMAN_AGENT' | undefined; file?: OutboundFile },
): Promise<PersonReplyResult['message']> {
  const token = decryptSecret(channel.accessTokenEncrypted ?? '', deps.encryptionKey)
  const sender = senderFor(deps, channel, token, conversation.platformChatId, {
    messengerTag: options.messengerTag,
  })
  const parts = partsOf(message, sender)
  let platformMessageId = message.platformMessageId
  try {
    for (let index = message.sentParts; index < parts.length; index++) {
      const part = parts[index]
      let sent: { platformMessageId: string }
      if (part.file) {
        const file = options.file ?? (await storedFile(scope, message))
        sent = await onceMore(() => sender.sendFile({ ...file, caption: part.caption }))
      } else {
        sent = await onceMore(() => sender.send(part.text))
      }
      platformMessageId ??= sent.platformMessageId
      await scope.db
        .update(messages)
        .set({ sentParts: index + 1, platformMessageId })
        .where(eq(messages.id, message.id))
    }
  } catch (error) {
    if (!(error instanceof PlatformError) && !(error instanceof ModelError)) throw error
    await recordFailure(scope, channel, message.id, error)
  }
  const [sent] = await scope.db
    .update(messages)
    .set({ status: 'sent', failureReason: null, platformSentAt: sql`statement_timestamp()` })
    .where(eq(messages.id, message.id))
    .returning(resultColumns)
  return sent
}

/** A platform's refusal: the message failed with why (the channel in error for a dead token), and reported. */
async function recordFailure(
  scope: OrganizationScope,
  channel: Channel,
  messageId: string,
  error: PlatformError | ModelError,
): Promise<never> {
  const tokenInvalid = error instanceof PlatformError && error.code === 'AUTH_TOKEN_INVALID'
  const reason = tokenInvalid ? REPLY_FAILURES.tokenInvalid : failureReason(error)
  await scope.db.transaction(async (tx) => {
    await tx.update(messages).set({ status: 'failed', failureReason: reason }).where(eq(messages.id, messageId))
    if (tokenInvalid) {
      await tx
        .update(channels)
        .set({ status: 'error', statusReason: error.message, updatedAt: new Date() })
        .where(eq(channels.id, channel.id))
    }
  })
  throw new AppError(tokenInvalid ? 'CONFLICT' : 'UPSTREAM_ERROR', reason)
}

/**
 * Sends a failed message again: a person's reply from the part it stopped at (the platform's window checked
 * again); an AI answer through the reply queue (the answer already written is sent; if the model had failed,
 * it is asked again). The conversation stops needing attention for it.
 */
export async function retryMessage(
  scope: OrganizationScope,
  deps: PersonReplyDeps,
  messageId: string,
  /** The conversation the message must be in, when the caller names one (the API's path): another's is not found. */
  conversationId?: string,
): Promise<{ requeued: boolean }> {
  if (!isUuid(messageId) || (conversationId !== undefined && !isUuid(conversationId))) {
    throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.messageNotFound)
  }
  const [message] = await scope.db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.id, messageId),
        eq(messages.organizationId, scope.organizationId),
        conversationId === undefined ? undefined : eq(messages.conversationId, conversationId),
      ),
    )
    .limit(1)
  if (!message) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.messageNotFound)
  if (message.status !== 'failed') throw new AppError('CONFLICT', CONVERSATION_TEXTS.notRetryable)

  if (message.direction === 'outbound' && message.authorUserId) {
    const { conversation, channel } = await conversationWithChannel(scope, message.conversationId)
    const window = requireReachable(channel, conversation)
    await deliverPersonReply(scope, deps, channel, conversation, message, { messengerTag: window.tag })
    return { requeued: false }
  }

  // An AI answer: the customer's message goes back to the queue, its written answer (if any) back to pending.
  const inboundId = message.direction === 'inbound' ? message.id : message.replyToMessageId
  if (!inboundId) throw new AppError('CONFLICT', CONVERSATION_TEXTS.notRetryable)
  const requeued = await scope.db.transaction(async (tx) => {
    const [inbound] = await tx
      .update(messages)
      .set({ status: 'queued', failureReason: null })
      .where(
        and(
          eq(messages.id, inboundId),
          eq(messages.organizationId, scope.organizationId),
          sql`${messages.status} in ('failed', 'received')`,
        ),
      )
      .returning({ id: messages.id, conversationId: messages.conversationId })
    if (!inbound) return false
    await tx
      .update(messages)
      .set({ status: 'pending', failureReason: null })
      .where(
        and(
          eq(messages.replyToMessageId, inboundId),
          eq(messages.direction, 'outbound'),
          eq(messages.status, 'failed'),
        ),
      )
    await tx
      .update(conversations)
      .set({ attentionReason: null, attentionAt: null })
      .where(eq(conversations.id, inbound.conversationId))
    // Sent in the transaction (one connection on PGlite): a rollback takes the job back too.
    await deps.boss.send(
      REPLY_QUEUE,
      { messageId: inbound.id },
      { ...replyJobOptions(inbound.conversationId), db: jobsIn(tx) },
    )
    return true
  })
  if (!requeued) throw new AppError('CONFLICT', CONVERSATION_TEXTS.notRetryable)
  return { requeued }
}
