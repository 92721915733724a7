import { eq } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { channels, type Channel } from '~/db/schema'
import {
  telegramUpdateEnvelope,
  telegramUpdateSchema,
  type TelegramUpdateBody,
} from '~/integrations/telegram/update.server'
import { matchesSecretHash } from '~/utils/crypto.server'
import { AppError } from '~/utils/errors'
import type { Logger } from '~/utils/logger.server'
import { recordInboundMessage, recordSkippedEvent, type WebhookSkipReason } from '~/utils/metrics.server'
import type { Ingest } from '~/services/messages/ingest/batch.server'
import { ingestInbound, type NormalizedMessage } from '~/services/messages/ingest/ingest.server'
import { telegramInbound } from '~/integrations/telegram/inbound.server'
import type { ReplyQueue } from '~/services/messages/ingest/reply-queue.server'
import type { WebhookChannels } from './channels.server'
import { isUuid } from '~/lib/shared/input'
import { linkTelegramChat, telegramLinkCodeOf } from '~/services/notifications/telegram-alerts.server'

/**
 * The channel a webhook URL names, whatever its organization. Not scoped by a user on purpose: a platform calls
 * the webhook, not a member, and what authenticates the call is the channel's own secret (Telegram) or the
 * app's signature (Meta), checked by the caller right after. Never hand the result to a person.
 */
export async function findChannelForWebhook(db: Database, channelId: string): Promise<Channel | undefined> {
  if (!isUuid(channelId)) return undefined
  const [channel] = await db.select().from(channels).where(eq(channels.id, channelId)).limit(1)
  return channel
}

export const WEBHOOK_TEXTS = {
  unknownChannel: 'Channel not found',
  badSecret: 'Invalid webhook secret',
  badBody: 'Invalid update',
} as const

/**
 * The Telegram channel a webhook call is for, when it presents that channel's secret (the `secret_token` given
 * to setWebhook, compared with its stored hash in constant time). A channel whose webhook is off has no secret
 * and accepts nothing.
 */
export async function authenticateTelegramWebhook(
  db: Database,
  channelId: string,
  secretToken: string | null,
  /** The process's coalescing lookup (the receivers); one query per call otherwise. */
  lookup?: Pick<WebhookChannels, 'byId'>,
): Promise<Channel> {
  const channel = lookup ? await lookup.byId(channelId) : await findChannelForWebhook(db, channelId)
  if (!channel || channel.platformName !== 'telegram') {
    throw new AppError('NOT_FOUND', WEBHOOK_TEXTS.unknownChannel)
  }
  if (!matchesSecretHash(secretToken, channel.webhookSecretHash)) {
    throw new AppError('AUTH_FAILED', WEBHOOK_TEXTS.badSecret)
  }
  return channel
}

/** The update's kind: the field beside update_id that carries it (message, edited_message, my_chat_member...). */
function updateKind(update: Record<string, unknown>): string {
  return Object.keys(update).find((key) => key !== 'update_id') ?? 'unknown'
}

/**
 * One update of an authenticated channel: checked, normalized, stored and enqueued (see ingestInbound). Only a
 * body that is not an update at all is refused; an update of a kind we do not keep (edits, channel posts, member
 * changes, reactions...), a bot's message, or a message without what we need is acknowledged, stores nothing, and
 * is counted and logged by its kind, so that Telegram does not send it again.
 */
export async function receiveTelegramUpdate({
  db,
  boss,
  channel,
  body,
  ingest = (message) => ingestInbound({ db, boss, message }),
  logger,
}: {
  db: Database
  boss: ReplyQueue
  channel: Channel
  body: unknown
  /** How the message is stored and enqueued: the process's batcher in the receivers, one transaction otherwise. */
  ingest?: Ingest
  /** Where skipped updates are reported (their kind and reason, never their content). */
  logger?: Logger
}): Promise<{ stored: boolean }> {
  const parsed = telegramUpdateSchema.safeParse(body)
  if (!parsed.success) {
    const envelope = telegramUpdateEnvelope.safeParse(body)
    if (!envelope.success) throw new AppError('VALIDATION_ERROR', WEBHOOK_TEXTS.badBody)
    return skip(envelope.data, 'malformed', logger)
  }
  if (await isMembersChat(db, channel, parsed.data)) return skip(parsed.data, 'member_chat', logger)
  const message = normalizeTelegramUpdate(channel, parsed.data)
  if (!message) return skip(parsed.data, 'unsupported', logger)
  const { stored } = await ingest(message)
  recordInboundMessage('telegram', stored)
  return { stored }
}

/**
 * A message in a member's private chat with the bot, for alerts (docs/decisions/069): the chats already linked
 * are on the channel row (no query), and only a `/start` with one of our codes is looked up (and links the chat).
 */
async function isMembersChat(db: Database, channel: Channel, update: TelegramUpdateBody): Promise<boolean> {
  const chatId = update.message?.chat.id
  if (chatId === undefined) return false
  if (channel.memberChatIds.length > 0 && channel.memberChatIds.includes(String(chatId))) return true
  const code = telegramLinkCodeOf(update)
  return code !== undefined && linkTelegramChat(db, channel, code, update)
}

function skip(update: Record<string, unknown>, reason: WebhookSkipReason, logger: Logger | undefined) {
  const kind = update.message ? 'message' : updateKind(update)
  recordSkippedEvent('telegram', reason)
  logger?.info('webhook events skipped', { events: [{ platform: 'telegram', kind, reason }] })
  return { stored: false }
}

/** Telegram's normalizer: the update's message (see telegramInbound) on the channel it arrived on. */
export function normalizeTelegramUpdate(
  channel: Pick<Channel, 'id' | 'organizationId'>,
  update: TelegramUpdateBody,
): NormalizedMessage | undefined {
  const inbound = telegramInbound(update)
  return inbound && { ...inbound, organizationId: channel.organizationId, channelId: channel.id }
}
