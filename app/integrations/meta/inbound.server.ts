import type { MessageMedia } from '~/lib/conversations/media'
import { z } from 'zod'
import type { InboundMessage, PlatformReply } from '~/integrations/inbound-message'
import { unreadableText, type MessageKind } from '~/lib/conversations/conversations'
import type { WebhookSkipReason } from '~/utils/metrics.server'
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
  type MetaPlatform,
  type MetaWebhookBody,
} from './webhook-payload.server'

// Meta's webhook in our words: a delivery's events (messages, receipts, echoes) as the inbound stage takes them.

// Meta's reference pages show fields that are not always there (a delivery receipt without `timestamp`, an opt-in
// without `sender`, a message without `contacts`), and new event kinds appear without notice. So the envelope
// (`object`, `entry[]`) is read strictly and every event on its own: an event that is of a kind we do not handle,
// or that lacks what we need, is skipped and counted, and never costs the rest of the batch (docs/decisions/029).

/** An event left out: its kind (`reaction`, `optin`, `status`...) and why; never its content. */
export type MetaSkipped = MetaChannelKey & { kind: string; reason: WebhookSkipReason }

export type MetaChannelKey = { platform: MetaPlatform; platformChannelId: string }

/** What a delivery says, channel by channel, before any channel is looked up. */
export type MetaEvent = MetaChannelKey &
  (
    | {
        kind: 'message'
        message: InboundMessage
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

/** One Messenger event being read: its page, the entry's time, where its events and skips go. */
type MessengerEvent = {
  pageId: string
  entryTime: number | undefined
  key: { platform: 'facebook'; platformChannelId: string }
  out: MetaEvents
  skip: (reason: WebhookSkipReason, kind?: string) => void
}

function messengerEvents(pageId: string, entryTime: number | undefined, raw: unknown, out: MetaEvents): void {
  const key = { platform: 'facebook', platformChannelId: pageId } as const
  if (!isRecord(raw)) return void out.skipped.push({ ...key, kind: 'unknown', reason: 'malformed' })
  const kind = messengerKind(raw)
  const skip = (reason: WebhookSkipReason, as = kind) => void out.skipped.push({ ...key, kind: as, reason })
  const read = MESSENGER_READERS[kind]
  if (!read) return skip('unsupported')
  read(raw, { pageId, entryTime, key, out, skip })
}

const MESSENGER_READERS: Record<string, (raw: unknown, event: MessengerEvent) => void> = {
  echo: messengerEchoEvent,
  message: messengerMessageEvent,
  postback: messengerPostbackEvent,
  delivery: messengerDeliveryEvent,
  read: messengerReadEvent,
}

function messengerEchoEvent(raw: unknown, { pageId, entryTime, key, out, skip }: MessengerEvent): void {
  const parsed = messengerEcho.safeParse(raw)
  if (!parsed.success) return skip('malformed')
  const { sender, recipient, timestamp, message } = parsed.data
  // The customer is whichever side is not the page (older reference pages swap the two).
  const customer = recipient.id !== pageId ? recipient.id : sender.id
  if (customer === pageId) return skip('malformed')
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
}

/** A person's message or tapped button as our message; its own time, else the entry's, else ours. */
function fromPerson(
  { entryTime, key, out, skip }: MessengerEvent,
  sender: string,
  timestamp: unknown,
  content: { platformMessageId: string | undefined; text: string; kind: MessageKind; answerable: boolean },
): void {
  const own = timeOf(timestamp)
  const { platformMessageId, ...rest } = content
  if (!platformMessageId) return skip('malformed')
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

function messengerMessageEvent(raw: unknown, event: MessengerEvent): void {
  const parsed = messengerMessage.safeParse(raw)
  if (!parsed.success) return event.skip('malformed')
  const { sender, timestamp, message } = parsed.data
  if (sender.id === event.pageId) return event.skip('unsupported', 'echo')
  const text = message.text?.trim() ? message.text : undefined
  const content = text !== undefined ? 'text' : messengerContentKind(message.attachments)
  const url = content === 'text' || content === 'sticker' ? undefined : message.attachments?.[0]?.payload?.url
  fromPerson(event, sender.id, timestamp, {
    platformMessageId: message.mid,
    text: content === 'text' ? (text ?? '') : unreadableText(content),
    kind: content,
    ...(url && { media: { source: 'messenger', ref: url, state: 'pending' } }),
    answerable: true,
  })
}

function messengerPostbackEvent(raw: unknown, event: MessengerEvent): void {
  const parsed = messengerPostback.safeParse(raw)
  if (!parsed.success) return event.skip('malformed')
  const { sender, timestamp, postback } = parsed.data
  if (sender.id === event.pageId) return event.skip('unsupported', 'echo')
  // A tapped button: its title is what the person said. Postbacks carry a mid on current Graph versions; an
  // older one without is keyed by its time, and one with neither cannot be told from its redelivery.
  const title = postback.title?.trim() ? postback.title : undefined
  if (!title) return event.skip('unsupported')
  const own = timeOf(timestamp)
  const id = postback.mid ?? (own ? `postback:${sender.id}:${own.getTime()}` : undefined)
  fromPerson(event, sender.id, timestamp, {
    platformMessageId: id,
    text: title,
    kind: 'text',
    answerable: true,
  })
}

function messengerDeliveryEvent(raw: unknown, { key, out, skip }: MessengerEvent): void {
  const parsed = messengerDelivery.safeParse(raw)
  if (!parsed.success) return skip('malformed')
  const { sender, delivery } = parsed.data
  const watermark = timeOf(delivery.watermark)
  if (delivery.mids?.length) {
    out.events.push({ ...key, kind: 'status', platformMessageIds: delivery.mids, status: 'delivered' })
  } else if (watermark) {
    out.events.push({ ...key, kind: 'watermark', status: 'delivered', platformChatId: sender.id, watermark })
  } else {
    skip('malformed')
  }
}

function messengerReadEvent(raw: unknown, { key, out, skip }: MessengerEvent): void {
  const parsed = messengerRead.safeParse(raw)
  const watermark = parsed.success ? timeOf(parsed.data.read.watermark) : undefined
  if (!parsed.success || !watermark) return skip('malformed')
  out.events.push({
    ...key,
    kind: 'watermark',
    status: 'read',
    platformChatId: parsed.data.sender.id,
    watermark,
  })
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
function whatsappText(message: WhatsAppContent): {
  text: string
  kind: MessageKind
  answerable: boolean
  media?: MessageMedia
} {
  const chosen =
    message.text?.body ??
    message.button?.text ??
    message.interactive?.button_reply?.title ??
    message.interactive?.list_reply?.title
  if (chosen?.trim()) return { text: chosen, kind: 'text', answerable: true }
  const caption = message.image?.caption ?? message.video?.caption ?? message.document?.caption
  const type = message.type === 'audio' && message.audio?.voice ? 'voice' : (message.type ?? '')
  const kind = WHATSAPP_KINDS[type] ?? 'other'
  const file = message.image ?? message.video ?? message.document ?? message.audio
  const media: MessageMedia | undefined = file?.id
    ? {
        source: 'whatsapp',
        ref: file.id,
        ...(file.mime_type && { contentType: file.mime_type }),
        ...(file.filename && { fileName: file.filename }),
        ...(caption?.trim() && { caption: caption.trim() }),
        state: 'pending',
      }
    : undefined
  return {
    text: unreadableText(kind, caption),
    kind,
    answerable: type !== 'reaction',
    ...(media && { media }),
  }
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

type WhatsAppValue = z.output<typeof whatsappChange>['value']
type WhatsAppKey = { platform: 'whatsapp'; platformChannelId: string }
type WhatsAppSkip = (kind: string, reason: WebhookSkipReason) => void

function whatsappEvents(raw: unknown, out: MetaEvents): void {
  const skipFor =
    (platformChannelId: string): WhatsAppSkip =>
    (kind, reason) =>
      void out.skipped.push({ platform: 'whatsapp', platformChannelId, kind, reason })
  const parsed = whatsappChange.safeParse(raw)
  if (!parsed.success) return skipFor('')('change', 'malformed')
  const { field, value } = parsed.data
  // Other fields of the WABA (account_update, message_template_status_update, history...).
  if (field !== 'messages' && field !== 'smb_message_echoes') return skipFor('')(field, 'unsupported')
  const phoneNumberId = value.metadata?.phone_number_id
  if (!phoneNumberId) return skipFor('')(field, 'malformed')
  const key = { platform: 'whatsapp', platformChannelId: phoneNumberId } as const
  const skip = skipFor(phoneNumberId)
  if (field === 'smb_message_echoes') return whatsappEchoes(value, key, out, skip)
  whatsappMessages(value, key, out, skip)
  whatsappStatuses(value, key, out, skip)
  // Errors about the number or the app, not about one message (rate limits, an unsupported action...).
  value.errors?.forEach(() => skip('errors', 'unsupported'))
}

function whatsappEchoes(value: WhatsAppValue, key: WhatsAppKey, out: MetaEvents, skip: WhatsAppSkip): void {
  for (const item of value.message_echoes ?? []) {
    const echo = whatsappEcho.safeParse(item)
    if (!echo.success) {
      skip('echo', 'malformed')
      continue
    }
    const { to, id, timestamp, type } = echo.data
    // Edits and deletions of a message sent before: not a new message of the conversation.
    if (type === 'edit' || type === 'revoke') {
      skip(type, 'unsupported')
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
}

function whatsappMessages(value: WhatsAppValue, key: WhatsAppKey, out: MetaEvents, skip: WhatsAppSkip): void {
  // Names are a nicety: a message without `contacts`, or with contacts we cannot read, is kept without one.
  const contacts = value.contacts === undefined ? undefined : whatsappContacts.safeParse(value.contacts).data
  const names = new Map((contacts ?? []).map((c) => [c.wa_id, c.profile?.name ?? null]))
  for (const item of value.messages ?? []) {
    const message = whatsappMessage.safeParse(item)
    if (!message.success) {
      skip(isRecord(item) && typeof item.type === 'string' ? item.type : 'message', 'malformed')
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
}

function whatsappStatuses(value: WhatsAppValue, key: WhatsAppKey, out: MetaEvents, skip: WhatsAppSkip): void {
  for (const item of value.statuses ?? []) {
    const status = whatsappStatus.safeParse(item)
    if (!status.success || !isWhatsAppStatus(status.data.status)) {
      skip('status', status.success ? 'unsupported' : 'malformed')
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
