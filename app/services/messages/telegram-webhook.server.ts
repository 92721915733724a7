import { eq } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { channels, type Channel } from '~/db/schema'
import { matchesSecretHash } from '~/utils/crypto.server'
import { AppError } from '~/utils/errors'
import { recordInboundMessage } from '~/utils/metrics.server'
import type { Ingest } from './ingest-batch.server'
import { ingestInbound, normalizeTelegramUpdate, telegramUpdateSchema } from './ingest.server'
import type { ReplyQueue } from './reply-queue.server'
import type { WebhookChannels } from './webhook-channels.server'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The channel a webhook URL names, whatever its organization. Not scoped by a user on purpose: a platform calls
 * the webhook, not a member, and what authenticates the call is the channel's own secret (Telegram) or the
 * app's signature (Meta), checked by the caller right after. Never hand the result to a person.
 */
export async function findChannelForWebhook(db: Database, channelId: string): Promise<Channel | undefined> {
  if (!UUID.test(channelId)) return undefined
  const [channel] = await db.select().from(channels).where(eq(channels.id, channelId)).limit(1)
  return channel
}

export const WEBHOOK_MESSAGES = {
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
    throw new AppError('NOT_FOUND', WEBHOOK_MESSAGES.unknownChannel)
  }
  if (!matchesSecretHash(secretToken, channel.webhookSecretHash)) {
    throw new AppError('AUTH_FAILED', WEBHOOK_MESSAGES.badSecret)
  }
  return channel
}

/**
 * One update of an authenticated channel: checked, normalized, stored and enqueued (see ingestInbound). An
 * update that carries no message to keep is accepted and dropped, so that Telegram does not send it again.
 */
export async function receiveTelegramUpdate({
  db,
  boss,
  channel,
  body,
  ingest = (message) => ingestInbound({ db, boss, message }),
}: {
  db: Database
  boss: ReplyQueue
  channel: Channel
  body: unknown
  /** How the message is stored and enqueued: the process's batcher in the receivers, one transaction otherwise. */
  ingest?: Ingest
}): Promise<{ stored: boolean }> {
  const parsed = telegramUpdateSchema.safeParse(body)
  if (!parsed.success) throw new AppError('VALIDATION_ERROR', WEBHOOK_MESSAGES.badBody)
  const message = normalizeTelegramUpdate(channel, parsed.data)
  if (!message) return { stored: false }
  const { stored } = await ingest(message)
  recordInboundMessage('telegram', stored)
  return { stored }
}
