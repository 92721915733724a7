import { and, eq, inArray, lte, or } from 'drizzle-orm'
import { z } from 'zod'
import type { Database } from '~/db/client.server'
import { channels, conversations, messages, type Channel, type OutboundMessageStatus } from '~/db/schema'
import { PLATFORM_REPLY_SENDERS, unreadableText, type MessageKind } from '~/lib/conversations'
import { recordPlatformReply, type PlatformReply } from '~/services/conversations/platform-reply.server'
import type { ResumeScheduler } from '~/services/conversations/takeover.server'
import { AppError } from '~/utils/errors'
import type { Logger } from '~/utils/logger.server'
import {
  recordIncompleteEvent,
  recordInboundMessage,
  recordSkippedEvent,
  type WebhookSkipReason,
} from '~/utils/metrics.server'
import type { Ingest } from '~/services/messages/ingest/batch.server'
import {
  ingestInbound,
  type IngestResult,
  type NormalizedMessage,
} from '~/services/messages/ingest/ingest.server'
import type { ReplyQueue } from '~/services/messages/ingest/reply-queue.server'
import type { WebhookChannels } from './channels.server'
import {
  MESSENGER_KINDS,
  messengerDelivery,
  messengerEcho,
  messengerMessage,
  messengerPostback,
  messengerRead,
  pageEntry,
  wabaEntry,
  whatsappChange,
  whatsappContacts,
  whatsappEcho,
  whatsappMessage,
  whatsappStatus,
  metaWebhookSchema,
  type MetaPlatform,
  type MetaWebhookBody,
} from '~/integrations/meta/webhook-payload.server'

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

// Meta's reference pages show fields that are not always there (a delivery receipt without `timestamp`, an opt-in
// without `sender`, a message without `contacts`), and new event kinds appear without notice. So the envelope
// (`object`, `entry[]`) is read strictly and every event on its own: an event that is of a kind we do not handle,
// or that lacks what we need, is skipped and counted, and never costs the rest of the batch (docs/decisions/029).

/** An event left out: its kind (`reaction`, `optin`, `status`...) and why; never its content. */
export type MetaSkipped = ChannelKey & { kind: string; reason: WebhookSkipReason }

type ChannelKey = { platform: MetaPlatform; platformChannelId: string }

/** What a delivery says, channel by channel, before any channel is looked up. */
export type MetaEvent = ChannelKey &
  (
    | {
        kind: 'message'
        message: Omit<NormalizedMessage, 'organizationId' | 'channelId'>
        /** The event had no time of its own: the entry's time (or our receipt's) stands in. */
        untimed?: true
      }
    /** Outbound messages by platform id reached this state (WhatsApp statuses, Messenger deliveries). */
    | {
        kind: 'status'
        platformMessageIds: string[]
        status: 'sent' | 'delivered' | 'read' | 'failed'
        reason?: string
      }
    /** Messenger reads and deliveries by watermark: every answer of the conversation sent up to it. */
    | { kind: 'watermark'; status: 'delivered' | 'read'; platformChatId: string; watermark: Date }
    /**
     * The page's or number's own message (an echo): our own send, or a person's reply on the platform itself.
     * `appId` is the app that sent it (Messenger); Meta's own apps may name none (the WhatsApp Business app
     * never does).
     */
    | {
        kind: 'echo'
        appId?: string
        reply: Omit<PlatformReply, 'senderName'>
        /** The echo had no time of its own: the entry's time (or our receipt's) stands in. */
        untimed?: true
      }
  )

/** Everything a delivery holds: the events to use, in Meta's order, and those left out. */
export type MetaEvents = { events: MetaEvent[]; skipped: MetaSkipped[] }

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A time from Meta (milliseconds, or seconds with `seconds`), or undefined when there is none to read. */
function timeOf(value: unknown, seconds = false): Date | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  if (typeof number !== 'number' || !Number.isFinite(number) || number <= 0) return undefined
  return new Date(seconds ? number * 1000 : number)
}

function messengerKind(event: Record<string, unknown>): string {
  const kind = MESSENGER_KINDS.find((key) => key in event) ?? 'unknown'
  return kind === 'message' && isRecord(event.message) && event.message.is_echo === true ? 'echo' : kind
}

function messengerEvents(pageId: string, entryTime: number | undefined, raw: unknown, out: MetaEvents): void {
  const key = { platform: 'facebook', platformChannelId: pageId } as const
  const skip = (kind: string, reason: WebhookSkipReason) => void out.skipped.push({ ...key, kind, reason })
  if (!isRecord(raw)) return skip('unknown', 'malformed')
  const kind = messengerKind(raw)
  if (kind === 'echo') {
    const parsed = messengerEcho.safeParse(raw)
    if (!parsed.success) return skip(kind, 'malformed')
    const { sender, recipient, timestamp, message } = parsed.data
    // The customer is whichever side is not the page (older reference pages swap the two).
    const customer = recipient.id !== pageId ? recipient.id : sender.id
    if (customer === pageId) return skip(kind, 'malformed')
    const own = timeOf(timestamp)
    out.events.push({
      ...key,
      kind: 'echo',
      appId: message.app_id === undefined ? undefined : String(message.app_id),
      reply: {
        platformChatId: customer,
        platformMessageId: message.mid,
        text: message.text ?? '',
        platformSentAt: own ?? timeOf(entryTime) ?? new Date(),
      },
      untimed: own ? undefined : true,
    })
    return
  }

  /** A person's message or tapped button as our message; its own time, else the entry's, else ours. */
  const fromPerson = (
    sender: string,
    timestamp: unknown,
    content: { platformMessageId: string | undefined; text: string; kind: MessageKind; answerable: boolean },
  ) => {
    const own = timeOf(timestamp)
    const { platformMessageId, ...rest } = content
    if (!platformMessageId) return skip(kind, 'malformed')
    out.events.push({
      ...key,
      kind: 'message',
      message: {
        platformChatId: sender,
        platformMessageId,
        senderId: sender,
        senderName: null,
        ...rest,
        platformSentAt: own ?? timeOf(entryTime) ?? new Date(),
      },
      untimed: own ? undefined : true,
    })
  }
  if (kind === 'message') {
    const parsed = messengerMessage.safeParse(raw)
    if (!parsed.success) return skip(kind, 'malformed')
    const { sender, timestamp, message } = parsed.data
    if (sender.id === pageId) return skip('echo', 'unsupported')
    const text = message.text?.trim() ? message.text : undefined
    const content = text !== undefined ? 'text' : messengerContentKind(message.attachments)
    return fromPerson(sender.id, timestamp, {
      platformMessageId: message.mid,
      text: content === 'text' ? (text ?? '') : unreadableText(content),
      kind: content,
      answerable: true,
    })
  }
  if (kind === 'postback') {
    const parsed = messengerPostback.safeParse(raw)
    if (!parsed.success) return skip(kind, 'malformed')
    const { sender, timestamp, postback } = parsed.data
    if (sender.id === pageId) return skip('echo', 'unsupported')
    // A tapped button: its title is what the person said. Postbacks carry a mid on current Graph versions; an
    // older one without is keyed by its time, and one with neither cannot be told from its redelivery.
    const title = postback.title?.trim() ? postback.title : undefined
    if (!title) return skip(kind, 'unsupported')
    const own = timeOf(timestamp)
    const id = postback.mid ?? (own ? `postback:${sender.id}:${own.getTime()}` : undefined)
    return fromPerson(sender.id, timestamp, {
      platformMessageId: id,
      text: title,
      kind: 'text',
      answerable: true,
    })
  }
  if (kind === 'delivery') {
    const parsed = messengerDelivery.safeParse(raw)
    if (!parsed.success) return skip(kind, 'malformed')
    const { sender, delivery } = parsed.data
    const watermark = timeOf(delivery.watermark)
    if (delivery.mids?.length) {
      out.events.push({ ...key, kind: 'status', platformMessageIds: delivery.mids, status: 'delivered' })
    } else if (watermark) {
      out.events.push({
        ...key,
        kind: 'watermark',
        status: 'delivered',
        platformChatId: sender.id,
        watermark,
      })
    } else {
      skip(kind, 'malformed')
    }
    return
  }
  if (kind === 'read') {
    const parsed = messengerRead.safeParse(raw)
    const watermark = parsed.success ? timeOf(parsed.data.read.watermark) : undefined
    if (!parsed.success || !watermark) return skip(kind, 'malformed')
    out.events.push({
      ...key,
      kind: 'watermark',
      status: 'read',
      platformChatId: parsed.data.sender.id,
      watermark,
    })
    return
  }
  skip(kind, 'unsupported')
}

/** What a WhatsApp message (or echo) says, in the fields it may say it in. */
type WhatsAppContent = Pick<
  z.infer<typeof whatsappMessage>,
  'type' | 'text' | 'button' | 'interactive' | 'image' | 'video' | 'document' | 'audio'
>

/** What a Messenger message without text carries: its first attachment's type (a sticker is an image with its id). */
function messengerContentKind(
  attachments: { type?: string; payload?: { sticker_id?: unknown } | null }[] | undefined,
): Exclude<MessageKind, 'text'> {
  const first = attachments?.[0]
  if (!first) return 'other'
  if (first.payload?.sticker_id !== undefined) return 'sticker'
  const kinds: Record<string, Exclude<MessageKind, 'text'>> = {
    image: 'photo',
    audio: 'voice',
    video: 'video',
    file: 'file',
    location: 'location',
  }
  return kinds[first.type ?? ''] ?? 'other'
}

/** What a WhatsApp message that is not text carries, by its `type` (Cloud API's messages object). */
const WHATSAPP_KINDS: Record<string, Exclude<MessageKind, 'text'>> = {
  image: 'photo',
  audio: 'audio',
  voice: 'voice',
  video: 'video',
  document: 'file',
  sticker: 'sticker',
  location: 'location',
  contacts: 'contact',
}

/**
 * The text a WhatsApp message carries and its kind: text a person typed or chose, else what it was (a voice note
 * is an `audio` with `voice: true`) with its caption. A reaction is stored but not answered: it says nothing new.
 */
function whatsappText(message: WhatsAppContent): { text: string; kind: MessageKind; answerable: boolean } {
  const chosen =
    message.text?.body ??
    message.button?.text ??
    message.interactive?.button_reply?.title ??
    message.interactive?.list_reply?.title
  if (chosen?.trim()) return { text: chosen, kind: 'text', answerable: true }
  const caption = message.image?.caption ?? message.video?.caption ?? message.document?.caption
  const type = message.type === 'audio' && message.audio?.voice ? 'voice' : (message.type ?? '')
  const kind = WHATSAPP_KINDS[type] ?? 'other'
  return { text: unreadableText(kind, caption), kind, answerable: type !== 'reaction' }
}

/**
 * The customer's wa_id from an echo's `to`: the number as the business typed it, which Meta's reference shows with
 * a `+` ("+16505551234") while messages name the customer by wa_id ("16505551234"). Anything that is not a phone
 * number (a business-scoped user id) is kept as it is.
 */
function waIdOf(to: string): string {
  const digits = to.replace(/\D/g, '')
  return /^\+?[\d\s().-]+$/.test(to) && digits ? digits : to
}

const WHATSAPP_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const
const isWhatsAppStatus = (status: string): status is (typeof WHATSAPP_STATUSES)[number] =>
  (WHATSAPP_STATUSES as readonly string[]).includes(status)

function whatsappEvents(raw: unknown, out: MetaEvents): void {
  const skip = (kind: string, reason: WebhookSkipReason, platformChannelId = '') =>
    void out.skipped.push({ platform: 'whatsapp', platformChannelId, kind, reason })
  const parsed = whatsappChange.safeParse(raw)
  if (!parsed.success) return skip('change', 'malformed')
  const { field, value } = parsed.data
  // Other fields of the WABA (account_update, message_template_status_update, history...).
  if (field !== 'messages' && field !== 'smb_message_echoes') return skip(field, 'unsupported')
  const phoneNumberId = value.metadata?.phone_number_id
  if (!phoneNumberId) return skip(field, 'malformed')
  const key = { platform: 'whatsapp', platformChannelId: phoneNumberId } as const
  if (field === 'smb_message_echoes') {
    for (const item of value.message_echoes ?? []) {
      const echo = whatsappEcho.safeParse(item)
      if (!echo.success) {
        skip('echo', 'malformed', phoneNumberId)
        continue
      }
      const { to, id, timestamp, type } = echo.data
      // Edits and deletions of a message sent before: not a new message of the conversation.
      if (type === 'edit' || type === 'revoke') {
        skip(type, 'unsupported', phoneNumberId)
        continue
      }
      const own = timeOf(timestamp, true)
      out.events.push({
        ...key,
        kind: 'echo',
        reply: {
          platformChatId: waIdOf(to),
          platformMessageId: id,
          text: whatsappText(echo.data).text,
          platformSentAt: own ?? new Date(),
        },
        untimed: own ? undefined : true,
      })
    }
    return
  }
  // Names are a nicety: a message without `contacts`, or with contacts we cannot read, is kept without one.
  const contacts = value.contacts === undefined ? undefined : whatsappContacts.safeParse(value.contacts).data
  const names = new Map((contacts ?? []).map((c) => [c.wa_id, c.profile?.name ?? null]))
  for (const item of value.messages ?? []) {
    const message = whatsappMessage.safeParse(item)
    if (!message.success) {
      const type = isRecord(item) && typeof item.type === 'string' ? item.type : 'message'
      skip(type, 'malformed', phoneNumberId)
      continue
    }
    const { from, id, timestamp } = message.data
    const own = timeOf(timestamp, true)
    out.events.push({
      ...key,
      kind: 'message',
      message: {
        platformChatId: from,
        platformMessageId: id,
        senderId: from,
        senderName: names.get(from) ?? null,
        ...whatsappText(message.data),
        platformSentAt: own ?? new Date(),
      },
      untimed: own ? undefined : true,
    })
  }
  for (const item of value.statuses ?? []) {
    const status = whatsappStatus.safeParse(item)
    if (!status.success) {
      skip('status', 'malformed', phoneNumberId)
      continue
    }
    if (!isWhatsAppStatus(status.data.status)) {
      skip('status', 'unsupported', phoneNumberId)
      continue
    }
    const error = status.data.errors?.[0]
    out.events.push({
      ...key,
      kind: 'status',
      platformMessageIds: [status.data.id],
      status: status.data.status,
      reason: error ? [error.title, error.message].filter(Boolean).join(': ') || undefined : undefined,
    })
  }
  // Errors about the number or the app, not about one message (rate limits, an unsupported action...).
  value.errors?.forEach(() => skip('errors', 'unsupported', phoneNumberId))
}

/** Every event of a delivery, in the order Meta listed them, and the events left out. */
export function metaEvents(body: MetaWebhookBody): MetaEvents {
  const out: MetaEvents = { events: [], skipped: [] }
  if (body.object === 'page') {
    for (const raw of body.entry) {
      const entry = pageEntry.safeParse(raw)
      if (!entry.success) {
        out.skipped.push({ platform: 'facebook', platformChannelId: '', kind: 'entry', reason: 'malformed' })
        continue
      }
      const { id, time, messaging = [], standby = [], changes = [] } = entry.data
      for (const event of messaging) messengerEvents(id, time, event, out)
      const key = { platform: 'facebook', platformChannelId: id } as const
      standby.forEach(() => out.skipped.push({ ...key, kind: 'standby', reason: 'unsupported' }))
      changes.forEach(() => out.skipped.push({ ...key, kind: 'changes', reason: 'unsupported' }))
    }
  } else if (body.object === 'whatsapp_business_account') {
    for (const raw of body.entry) {
      const entry = wabaEntry.safeParse(raw)
      if (!entry.success) {
        out.skipped.push({ platform: 'whatsapp', platformChannelId: '', kind: 'entry', reason: 'malformed' })
        continue
      }
      for (const change of entry.data.changes) whatsappEvents(change, out)
    }
  }
  return out
}

/**
 * The channels a delivery names. Not scoped by a user on purpose: Meta calls this, and the app's signature,
 * checked before, is what authenticates it.
 */
async function channelsFor(db: Database, keys: ChannelKey[]): Promise<Map<string, Channel>> {
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

async function channelsThrough(lookup: WebhookChannels, keys: ChannelKey[]): Promise<Map<string, Channel>> {
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
export async function receiveMetaWebhook({
  db,
  boss,
  body,
  appId,
  scheduleResume,
  ingest,
  lookup,
  logger,
}: {
  db: Database
  boss: ReplyQueue
  body: unknown
  /** Our Meta app's id (empty when not configured): an echo that names it is our own send. */
  appId: string
  /**
   * Sends the hand-back job of a conversation a reply on the platform paused. Without it, the sweep that runs
   * every minute hands back (jobs/conversation-resume).
   */
  scheduleResume?: ResumeScheduler
  /**
   * The process's batcher (the receivers): the delivery's messages go to it together, in order, and usually end
   * up in one transaction. Without it, each message is stored in its own transaction, one after another.
   */
  ingest?: Ingest
  /** The process's coalescing lookup (the receivers); one query per delivery otherwise. */
  lookup?: WebhookChannels
  /** Where skipped events are reported (their kind and reason). */
  logger?: Logger
}): Promise<MetaWebhookResult> {
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

  const ingesting: Promise<void>[] = []
  const echoes: { channel: Channel; event: Extract<MetaEvent, { kind: 'echo' }> }[] = []
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
  for (const { channel, event } of echoes) {
    if (event.untimed) recordIncompleteEvent(event.platform, 'timestamp')
    const reply = { ...event.reply, senderName: PLATFORM_REPLY_SENDERS[event.platform] }
    const recorded = await recordPlatformReply(db, channel, reply)
    if (!recorded.stored) {
      result.duplicates += 1
      continue
    }
    result.personReplies += 1
    if (recorded.aiPausedUntil) await scheduleResume?.(recorded.conversationId, recorded.aiPausedUntil)
  }
  return result
}
