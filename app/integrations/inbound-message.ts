import type { MessageKind } from '~/lib/conversations/conversations'
import type { MessageMedia } from '~/lib/conversations/media'

/**
 * A customer's message as every platform's translation hands it to the inbound stage, whatever the platform's own
 * shape (Telegram's Update, Meta's webhook events). The channel it arrived on is added by the stage.
 */
export type InboundMessage = {
  /** The conversation: Telegram's chat id, Messenger's PSID, WhatsApp's wa_id. */
  platformChatId: string
  /** Unique per channel for the platform (Telegram: `<chat id>:<message id>`), so a redelivery is dropped. */
  platformMessageId: string
  senderId: string | null
  senderName: string | null
  /** The customer's handle and language, where the platform gives them (Telegram, in a private chat): the contact panel. */
  senderHandle?: string | null
  senderLanguage?: string | null
  /** The text; for a message that is not text, its label and caption ("[photo] my order"), see unreadableText. */
  text: string
  /** Text, or what else the customer sent: the agent answers text, and says once per burst that it reads only text. */
  kind: MessageKind
  /** The voice note, photo or file to fetch (never fetched by the receiver: the worker reads it, ADR 074). */
  media?: MessageMedia
  /** From a person: the agent answers it (queued). False: stored only. */
  answerable: boolean
  platformSentAt: Date
}

/** A reply a person wrote on the platform itself (the Page inbox, the WhatsApp Business app), as its echo tells it. */
export type PlatformReply = {
  /** The customer: Messenger's PSID, WhatsApp's wa_id. */
  platformChatId: string
  /** The mid or wamid: a redelivered echo is dropped by the unique key. */
  platformMessageId: string
  text: string
  /** Where it was written ('Page inbox', 'WhatsApp Business app'): the inbox shows it beside the message. */
  senderName: string
  platformSentAt: Date
}
