import { and, eq, inArray, lte, or } from 'drizzle-orm'
import { z } from 'zod'
import type { Database } from '~/db/client.server'
import { channels, conversations, messages, type Channel, type OutboundMessageStatus } from '~/db/schema'
import { AppError } from '~/utils/errors'
import { recordInboundMessage } from '~/utils/metrics.server'
import type { Ingest } from './ingest-batch.server'
import { ingestInbound, type IngestResult, type NormalizedMessage } from './ingest.server'
import type { ReplyQueue } from './reply-queue.server'
import type { WebhookChannels } from './webhook-channels.server'

/**
 * Meta's webhook (`/webhooks/meta`): one URL for the app, Messenger (`object: "page"`) and WhatsApp
 * (`object: "whatsapp_business_account"`), each delivery a batch of entries for one or more pages or numbers.
 * Only the fields we read are checked; anything else passes through untouched.
 */

export const META_WEBHOOK_MESSAGES = {
  badSignature: 'Invalid signature',
  badBody: 'Invalid webhook payload',
  unknownChannel: 'Channel not found',
  badVerifyToken: 'Verification failed',
} as const

// Messenger (https://developers.facebook.com/docs/messenger-platform/webhooks)
const messengerEvent = z.looseObject({
  sender: z.looseObject({ id: z.string() }),
  recipient: z.looseObject({ id: z.string() }),
  timestamp: z.number(),
  message: z
    .looseObject({
      mid: z.string(),
      text: z.string().optional(),
      is_echo: z.boolean().optional(),
      attachments: z.array(z.unknown()).optional(),
    })
    .optional(),
  postback: z.looseObject({ mid: z.string().optional(), title: z.string().optional() }).optional(),
  delivery: z.looseObject({ mids: z.array(z.string()).optional(), watermark: z.number() }).optional(),
  read: z.looseObject({ watermark: z.number() }).optional(),
})
const pageEntry = z.looseObject({
  id: z.string(),
  time: z.number().optional(),
  messaging: z.array(messengerEvent).optional(),
})

// WhatsApp Cloud API (https://developers.facebook.com/docs/whatsapp/cloud-api/webhooks/components)
const whatsappMessage = z.looseObject({
  from: z.string(),
  id: z.string(),
  timestamp: z.string(),
  type: z.string(),
  text: z.looseObject({ body: z.string() }).optional(),
  button: z.looseObject({ text: z.string() }).optional(),
  interactive: z
    .looseObject({
      button_reply: z.looseObject({ title: z.string() }).optional(),
      list_reply: z.looseObject({ title: z.string() }).optional(),
    })
    .optional(),
  image: z.looseObject({ caption: z.string().optional() }).optional(),
  video: z.looseObject({ caption: z.string().optional() }).optional(),
  document: z.looseObject({ caption: z.string().optional() }).optional(),
})
const whatsappStatus = z.looseObject({
  id: z.string(),
  status: z.string(),
  timestamp: z.string().optional(),
  recipient_id: z.string().optional(),
  errors: z
    .array(
      z.looseObject({
        code: z.number().optional(),
        title: z.string().optional(),
        message: z.string().optional(),
      }),
    )
    .optional(),
})
const whatsappChange = z.looseObject({
  field: z.string(),
  value: z.looseObject({
    metadata: z.looseObject({ phone_number_id: z.string() }).optional(),
    contacts: z
      .array(z.looseObject({ wa_id: z.string(), profile: z.looseObject({ name: z.string() }).optional() }))
      .optional(),
    messages: z.array(whatsappMessage).optional(),
    statuses: z.array(whatsappStatus).optional(),
  }),
})
const wabaEntry = z.looseObject({ id: z.string(), changes: z.array(whatsappChange).optional() })

// Other products of the app (Instagram, permissions...) are accepted and ignored: their entries are not read.
export const metaWebhookSchema = z.looseObject({ object: z.string(), entry: z.array(z.unknown()) })
export type MetaWebhookBody = z.infer<typeof metaWebhookSchema>

type MetaPlatform = 'facebook' | 'whatsapp'

/** Which product a delivery is for, by its `object` (Messenger or WhatsApp); `meta` for anything else. */
export function metaWebhookPlatform(body: unknown): MetaPlatform | 'meta' {
  const object = body && typeof body === 'object' ? Reflect.get(body, 'object') : undefined
  if (object === 'page') return 'facebook'
  if (object === 'whatsapp_business_account') return 'whatsapp'
  return 'meta'
}
type ChannelKey = { platform: MetaPlatform; platformChannelId: string }

/** What a delivery says, channel by channel, before any channel is looked up. */
export type MetaEvent = ChannelKey &
  (
    | { kind: 'message'; message: Omit<NormalizedMessage, 'organizationId' | 'channelId'> }
    /** Outbound messages by platform id reached this state (WhatsApp statuses, Messenger deliveries). */
    | {
        kind: 'status'
        platformMessageIds: string[]
        status: 'sent' | 'delivered' | 'read' | 'failed'
        reason?: string
      }
    /** Messenger reads: every outbound message of the conversation up to the watermark was read. */
    | { kind: 'read'; platformChatId: string; watermark: Date }
  )

function messengerEvents(pageId: string, event: z.infer<typeof messengerEvent>): MetaEvent[] {
  const key = { platform: 'facebook', platformChannelId: pageId } as const
  const customer = event.sender.id
  // The page's own messages (echoes) are never answered, nor stored: we do not subscribe to them.
  if (event.message?.is_echo || customer === pageId) return []
  const sentAt = new Date(event.timestamp)
  if (event.message) {
    const text = event.message.text?.trim() ? event.message.text : undefined
    return [
      {
        ...key,
        kind: 'message',
        message: {
          platformChatId: customer,
          platformMessageId: event.message.mid,
          senderId: customer,
          senderName: null,
          text: text ?? '',
          answerable: text !== undefined,
          platformSentAt: sentAt,
        },
      },
    ]
  }
  if (event.postback?.title?.trim()) {
    // A tapped button: its title is what the person said. Postbacks carry a mid on current Graph versions.
    const id = event.postback.mid ?? `postback:${customer}:${event.timestamp}`
    const message = {
      platformChatId: customer,
      platformMessageId: id,
      senderId: customer,
      senderName: null,
      text: event.postback.title,
      answerable: true,
      platformSentAt: sentAt,
    }
    return [{ ...key, kind: 'message', message }]
  }
  const events: MetaEvent[] = []
  if (event.delivery?.mids?.length) {
    events.push({ ...key, kind: 'status', platformMessageIds: event.delivery.mids, status: 'delivered' })
  }
  if (event.read) {
    events.push({ ...key, kind: 'read', platformChatId: customer, watermark: new Date(event.read.watermark) })
  }
  return events
}

/** The text a WhatsApp message carries, and whether it is something a person typed or chose. */
function whatsappText(message: z.infer<typeof whatsappMessage>): { text: string; answerable: boolean } {
  const chosen =
    message.text?.body ??
    message.button?.text ??
    message.interactive?.button_reply?.title ??
    message.interactive?.list_reply?.title
  if (chosen?.trim()) return { text: chosen, answerable: true }
  const caption = message.image?.caption ?? message.video?.caption ?? message.document?.caption
  return { text: caption ?? '', answerable: false }
}

const WHATSAPP_STATUSES = new Set(['sent', 'delivered', 'read', 'failed'])

function whatsappEvents(change: z.infer<typeof whatsappChange>): MetaEvent[] {
  const phoneNumberId = change.value.metadata?.phone_number_id
  if (change.field !== 'messages' || !phoneNumberId) return []
  const key = { platform: 'whatsapp', platformChannelId: phoneNumberId } as const
  const names = new Map((change.value.contacts ?? []).map((c) => [c.wa_id, c.profile?.name ?? null]))
  const events: MetaEvent[] = (change.value.messages ?? []).map((message) => ({
    ...key,
    kind: 'message',
    message: {
      platformChatId: message.from,
      platformMessageId: message.id,
      senderId: message.from,
      senderName: names.get(message.from) ?? null,
      ...whatsappText(message),
      platformSentAt: new Date(Number(message.timestamp) * 1000),
    },
  }))
  for (const status of change.value.statuses ?? []) {
    if (!WHATSAPP_STATUSES.has(status.status)) continue
    const error = status.errors?.[0]
    events.push({
      ...key,
      kind: 'status',
      platformMessageIds: [status.id],
      status: status.status as 'sent' | 'delivered' | 'read' | 'failed',
      reason: error ? [error.title, error.message].filter(Boolean).join(': ') || undefined : undefined,
    })
  }
  return events
}

/** Every event of a delivery, in the order Meta listed them. Throws a ZodError for a malformed entry. */
export function metaEvents(body: MetaWebhookBody): MetaEvent[] {
  if (body.object === 'page') {
    const entries = z.array(pageEntry).parse(body.entry)
    return entries.flatMap((entry) =>
      (entry.messaging ?? []).flatMap((event) => messengerEvents(entry.id, event)),
    )
  }
  if (body.object === 'whatsapp_business_account') {
    const entries = z.array(wabaEntry).parse(body.entry)
    return entries.flatMap((entry) => (entry.changes ?? []).flatMap(whatsappEvents))
  }
  return []
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

async function applyRead(db: Database, channel: Channel, event: Extract<MetaEvent, { kind: 'read' }>) {
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
    .set({ status: 'read' })
    .where(
      and(
        eq(messages.conversationId, conversation.id),
        eq(messages.direction, 'outbound'),
        inArray(messages.status, EARLIER.read),
        lte(messages.platformSentAt, event.watermark),
      ),
    )
}

export type MetaWebhookResult = { stored: number; duplicates: number; statuses: number; ignored: number }

/**
 * One signed delivery: every text message of a connected page or number is normalized, stored and enqueued
 * (each in its own transaction, see ingestInbound; a redelivered one is dropped by the unique key), and receipts
 * move our outbound messages forward. Events for a page or number that is not connected are skipped; a delivery
 * that names no connected channel at all is refused (NOT_FOUND) and nothing is stored.
 */
export async function receiveMetaWebhook({
  db,
  boss,
  body,
  ingest,
  lookup,
}: {
  db: Database
  boss: ReplyQueue
  body: unknown
  /**
   * The process's batcher (the receivers): the delivery's messages go to it together, in order, and usually end
   * up in one transaction. Without it, each message is stored in its own transaction, one after another.
   */
  ingest?: Ingest
  /** The process's coalescing lookup (the receivers); one query per delivery otherwise. */
  lookup?: WebhookChannels
}): Promise<MetaWebhookResult> {
  const parsed = metaWebhookSchema.safeParse(body)
  if (!parsed.success) throw new AppError('VALIDATION_ERROR', META_WEBHOOK_MESSAGES.badBody)
  let events: MetaEvent[]
  try {
    events = metaEvents(parsed.data)
  } catch {
    throw new AppError('VALIDATION_ERROR', META_WEBHOOK_MESSAGES.badBody)
  }
  const result: MetaWebhookResult = { stored: 0, duplicates: 0, statuses: 0, ignored: 0 }
  if (events.length === 0) return result

  const unique = new Map(events.map((e) => [`${e.platform}:${e.platformChannelId}`, e]))
  const known = lookup
    ? await channelsThrough(lookup, [...unique.values()])
    : await channelsFor(db, [...unique.values()])
  if (known.size === 0) throw new AppError('NOT_FOUND', META_WEBHOOK_MESSAGES.unknownChannel)

  const ingesting: Promise<void>[] = []
  for (const event of events) {
    const channel = known.get(`${event.platform}:${event.platformChannelId}`)
    if (!channel) {
      result.ignored += 1
      continue
    }
    if (event.kind === 'message') {
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
    } else {
      await applyRead(db, channel, event)
      result.statuses += 1
    }
  }
  await Promise.all(ingesting)
  return result
}
