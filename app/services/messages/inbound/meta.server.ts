import { and, eq, inArray, lte, or } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { channels, conversations, messages, type Channel, type OutboundMessageStatus } from '~/db/schema'
import { PLATFORM_REPLY_SENDERS } from '~/lib/conversations/conversations'
import type { PlatformReply } from '~/integrations/inbound-message'
import { AppError } from '~/utils/errors'
import type { Logger } from '~/utils/logger.server'
import { recordIncompleteEvent, recordInboundMessage, recordSkippedEvent } from '~/utils/metrics.server'
import type { Ingest } from '~/services/messages/ingest/batch.server'
import { ingestInbound, type IngestResult } from '~/services/messages/ingest/ingest.server'
import type { ReplyQueue } from '~/services/messages/ingest/reply-queue.server'
import type { WebhookChannels } from './channels.server'
import { metaWebhookSchema } from '~/integrations/meta/webhook-payload.server'
import {
  metaEvents,
  type MetaChannelKey,
  type MetaEvent,
  type MetaSkipped,
} from '~/integrations/meta/inbound.server'

/**
 * Meta's webhook (`/webhooks/meta`): one URL for the app, Messenger (`object: "page"`) and WhatsApp
 * (`object: "whatsapp_business_account"`), each delivery a batch of entries for one or more pages or numbers.
 * Only the fields we read are checked; anything else passes through untouched.
 */

export const META_WEBHOOK_TEXTS = {
  badSignature: 'Invalid signature',
  badBody: 'Invalid webhook payload',
  unknownChannel: 'Channel not found',
  badVerifyToken: 'Verification failed',
} as const

/**
 * The channels a delivery names. Not scoped by a user on purpose: Meta calls this, and the app's signature,
 * checked before, is what authenticates it.
 */
async function channelsFor(db: Database, keys: MetaChannelKey[]): Promise<Map<string, Channel>> {
  const found = new Map<string, Channel>()
  if (keys.length === 0) return found
  const rows = await db
    .select()
    .from(channels)
    .where(
      or(
        ...keys.map((key) =>
          and(eq(channels.platformName, key.platform), eq(channels.platformChannelId, key.platformChannelId)),
        ),
      ),
    )
  for (const row of rows) found.set(`${row.platformName}:${row.platformChannelId}`, row)
  return found
}

async function channelsThrough(
  lookup: WebhookChannels,
  keys: MetaChannelKey[],
): Promise<Map<string, Channel>> {
  const found = new Map<string, Channel>()
  const rows = await Promise.all(keys.map((key) => lookup.byPlatformId(key.platform, key.platformChannelId)))
  for (const row of rows) if (row) found.set(`${row.platformName}:${row.platformChannelId}`, row)
  return found
}

// A receipt only moves an outbound message forward: `read` after `delivered` after `sent`; a late `sent` never
// undoes a `read`. `failed` replaces only what was not yet delivered.
const EARLIER: Record<'sent' | 'delivered' | 'read' | 'failed', OutboundMessageStatus[]> = {
  sent: ['pending'],
  delivered: ['pending', 'sent'],
  read: ['pending', 'sent', 'delivered'],
  failed: ['pending', 'sent'],
}

async function applyStatus(db: Database, channel: Channel, event: Extract<MetaEvent, { kind: 'status' }>) {
  await db
    .update(messages)
    .set({
      status: event.status,
      ...(event.status === 'failed'
        ? { failureReason: event.reason ?? 'The platform could not deliver it' }
        : {}),
    })
    .where(
      and(
        eq(messages.channelId, channel.id),
        eq(messages.direction, 'outbound'),
        inArray(messages.platformMessageId, event.platformMessageIds),
        inArray(messages.status, EARLIER[event.status]),
      ),
    )
}

/** Every answer of the conversation sent up to the watermark reached its state (Messenger reads, deliveries). */
async function applyWatermark(
  db: Database,
  channel: Channel,
  event: Extract<MetaEvent, { kind: 'watermark' }>,
) {
  const [conversation] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(
      and(eq(conversations.channelId, channel.id), eq(conversations.platformChatId, event.platformChatId)),
    )
    .limit(1)
  if (!conversation) return
  await db
    .update(messages)
    .set({ status: event.status })
    .where(
      and(
        eq(messages.conversationId, conversation.id),
        eq(messages.direction, 'outbound'),
        inArray(messages.status, EARLIER[event.status]),
        lte(messages.platformSentAt, event.watermark),
      ),
    )
}

/**
 * Records a reply a person wrote on the platform itself (an echo of another app) and pauses the AI of its
 * conversation; false when it was stored before. The conversations domain provides it (platformReplies).
 */
export type PersonReplies = (channel: Channel, reply: PlatformReply) => Promise<boolean>

export type MetaWebhookResult = {
  stored: number
  /** Replies a person wrote on the platform itself (echoes of other apps), stored now. */
  personReplies: number
  duplicates: number
  statuses: number
  /** Events of pages or numbers that are not connected here. */
  ignored: number
  /** Events of a kind we do not handle, or without what we need (see WebhookSkipReason). */
  skipped: number
}

/** Skipped events are counted by reason and logged by kind, never with their content. */
function reportSkipped(skipped: MetaSkipped[], logger: Logger | undefined): void {
  if (skipped.length === 0) return
  for (const event of skipped) recordSkippedEvent(event.platform, event.reason)
  logger?.info('webhook events skipped', {
    events: skipped.map(({ platform, platformChannelId, kind, reason }) => ({
      platform,
      channel: platformChannelId || undefined,
      kind,
      reason,
    })),
  })
}

/**
 * Whether an echo is of our own send (an AI answer, a reply from the inbox): it names our app. Without our app's
 * id, any echo that names an app might be ours, so only those that name none (Meta's own apps) are a person's.
 */
const isOwnEcho = (appId: string | undefined, ourAppId: string) =>
  ourAppId ? appId === ourAppId : appId !== undefined

/** What receiving a delivery needs. */
export type MetaWebhookDeps = {
  db: Database
  boss: ReplyQueue
  body: unknown
  /** Our Meta app's id (empty when not configured): an echo that names it is our own send. */
  appId: string
  /** Where a person's reply on the platform goes: the inbox's takeover records it and pauses the AI. */
  personReplies: PersonReplies
  /**
   * The process's batcher (the receivers): the delivery's messages go to it together, in order, and usually end
   * up in one transaction. Without it, each message is stored in its own transaction, one after another.
   */
  ingest?: Ingest
  /** The process's coalescing lookup (the receivers); one query per delivery otherwise. */
  lookup?: WebhookChannels
  /** Where skipped events are reported (their kind and reason). */
  logger?: Logger
}

/**
 * One signed delivery, event by event: every message of a connected page or number is normalized, stored and
 * enqueued (together, through the batcher, see ingestInboundBatch; a redelivered one is dropped by the unique
 * key), and receipts move our outbound messages forward. An echo of another app (a person's reply in the Page
 * inbox or the WhatsApp Business app) is stored as an outbound message and pauses the AI of its conversation;
 * the echo of our own send is skipped. Events of a kind we do not handle, without what we need, or for a page or
 * number that is not connected are skipped and counted; only a delivery that names no connected channel at all
 * is refused (NOT_FOUND), storing nothing, and only an envelope that is not Meta's (no `object`, no `entry` list)
 * is a VALIDATION_ERROR.
 *
 * Within one delivery the customers' messages are stored first and the echoes applied after them, whatever
 * Meta's order: a delivery is not a timeline (one entry per page, events of many people), and the batcher stores
 * its messages together. So a text beside an echo is stored and queued as if the echo came after it; its reply
 * job then finds the conversation paused (if it runs after the pause) and leaves it to the person, as for any
 * message queued before a pause (docs/decisions/036).
 */
export async function receiveMetaWebhook(deps: MetaWebhookDeps): Promise<MetaWebhookResult> {
  const { db, body, lookup, logger } = deps
  const parsed = metaWebhookSchema.safeParse(body)
  if (!parsed.success) throw new AppError('VALIDATION_ERROR', META_WEBHOOK_TEXTS.badBody)
  const { events, skipped } = metaEvents(parsed.data)
  const result: MetaWebhookResult = {
    stored: 0,
    personReplies: 0,
    duplicates: 0,
    statuses: 0,
    ignored: 0,
    skipped: skipped.length,
  }
  if (events.length === 0) {
    reportSkipped(skipped, logger)
    return result
  }

  const unique = new Map(events.map((e) => [`${e.platform}:${e.platformChannelId}`, e]))
  const known = lookup
    ? await channelsThrough(lookup, [...unique.values()])
    : await channelsFor(db, [...unique.values()])
  if (known.size === 0) {
    reportSkipped(skipped, logger)
    throw new AppError('NOT_FOUND', META_WEBHOOK_TEXTS.unknownChannel)
  }
  const echoes = await applyEvents(deps, events, known, result, skipped)
  for (const { channel, event } of echoes) {
    if (event.untimed) recordIncompleteEvent(event.platform, 'timestamp')
    const reply = { ...event.reply, senderName: PLATFORM_REPLY_SENDERS[event.platform] }
    if (await deps.personReplies(channel, reply)) result.personReplies += 1
    else result.duplicates += 1
  }
  return result
}

type Echo = { channel: Channel; event: Extract<MetaEvent, { kind: 'echo' }> }

/**
 * The delivery's messages stored (together, through the batcher when there is one), its receipts applied, its
 * own echoes skipped; answers the echoes of a person's reply, to be applied after the messages.
 */
async function applyEvents(
  { db, boss, appId, ingest, logger }: MetaWebhookDeps,
  events: MetaEvent[],
  known: Map<string, Channel>,
  result: MetaWebhookResult,
  skipped: MetaSkipped[],
): Promise<Echo[]> {
  const ingesting: Promise<void>[] = []
  const echoes: Echo[] = []
  for (const event of events) {
    const channel = known.get(`${event.platform}:${event.platformChannelId}`)
    if (!channel) {
      result.ignored += 1
      const { platform, platformChannelId, kind } = event
      skipped.push({ platform, platformChannelId, kind, reason: 'unknown_channel' })
      continue
    }
    if (event.kind === 'message') {
      if (event.untimed) recordIncompleteEvent(event.platform, 'timestamp')
      const message = { ...event.message, organizationId: channel.organizationId, channelId: channel.id }
      const count = ({ stored }: IngestResult) => {
        recordInboundMessage(channel.platformName === 'facebook' ? 'facebook' : 'whatsapp', stored)
        if (stored) result.stored += 1
        else result.duplicates += 1
      }
      if (ingest) ingesting.push(ingest(message).then(count))
      else count(await ingestInbound({ db, boss, message }))
    } else if (event.kind === 'status') {
      await applyStatus(db, channel, event)
      result.statuses += 1
    } else if (event.kind === 'watermark') {
      await applyWatermark(db, channel, event)
      result.statuses += 1
    } else if (isOwnEcho(event.appId, appId)) {
      const { platform, platformChannelId } = event
      skipped.push({ platform, platformChannelId, kind: 'echo', reason: 'own_echo' })
      result.skipped += 1
    } else {
      echoes.push({ channel, event })
    }
  }
  reportSkipped(skipped, logger)
  await Promise.all(ingesting)
  return echoes
}
