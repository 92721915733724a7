import type { InboundMessage } from '~/integrations/inbound-message'
import type { MessageMedia } from '~/lib/conversations/media'
import { unreadableText, type MessageKind } from '~/lib/conversations/conversations'
import type { TelegramUpdateBody, TelegramUser } from './update.server'

type TelegramMessage = NonNullable<TelegramUpdateBody['message']>

// Telegram's Update in our words: the customer's message as the inbound stage takes it.

function senderName(from: TelegramUser | undefined): string | null {
  if (!from) return null
  const full = [from.first_name, from.last_name].filter(Boolean).join(' ')
  return full || from.username || null
}

/** A plausible language tag ("en", "pt-br"), else null: what the contact panel may name. */
function languageTag(code: string | undefined): string | null {
  return code && /^[a-z]{2,3}(-[a-z0-9]{2,8}){0,2}$/i.test(code) ? code.toLowerCase() : null
}

/** What a Telegram message without text carries, by the field that holds it (Bot API's Message object). */
const TELEGRAM_KINDS: [string, Exclude<MessageKind, 'text'>][] = [
  ['voice', 'voice'],
  ['video_note', 'video'],
  ['photo', 'photo'],
  ['sticker', 'sticker'],
  ['animation', 'video'],
  ['video', 'video'],
  ['audio', 'audio'],
  ['document', 'file'],
  ['location', 'location'],
  ['venue', 'location'],
  ['contact', 'contact'],
]

/** The file a voice note, audio, photo (its largest size) or document carries, to be fetched by the worker. */
function telegramMedia(message: TelegramMessage, kind: MessageKind): MessageMedia | undefined {
  const file =
    kind === 'voice'
      ? message.voice
      : kind === 'audio'
        ? message.audio
        : kind === 'photo'
          ? message.photo?.at(-1)
          : kind === 'file'
            ? message.document
            : undefined
  if (!file) return undefined
  return {
    source: 'telegram',
    ref: file.file_id,
    ...(file.mime_type && { contentType: file.mime_type }),
    ...(file.file_size !== undefined && { byteSize: file.file_size }),
    ...(file.file_name && { fileName: file.file_name }),
    ...(message.caption?.trim() && { caption: message.caption.trim() }),
    state: 'pending',
  }
}

/**
 * A Telegram update as a NormalizedMessage, or undefined when there is nothing to store: updates other than a
 * new message (edits, channel posts, callbacks, member changes...) and messages from bots. A message without
 * text (a photo, a sticker, a voice note...) is stored with its kind, its label and caption as text, and queued:
 * the agent tells the customer it reads only text.
 */
export function telegramInbound(update: TelegramUpdateBody): InboundMessage | undefined {
  const message = update.message
  if (!message || message.from?.is_bot) return undefined
  const text = message.text?.trim() ? message.text : undefined
  const kind =
    text !== undefined ? 'text' : (TELEGRAM_KINDS.find(([field]) => field in message)?.[1] ?? 'other')
  return {
    platformChatId: String(message.chat.id),
    platformMessageId: `${message.chat.id}:${message.message_id}`,
    senderId: message.from ? String(message.from.id) : null,
    senderName: senderName(message.from),
    // In a group the conversation is the group's, not this member's.
    senderHandle:
      message.chat.type === 'private' && message.from?.username ? `@${message.from.username}` : null,
    senderLanguage: message.chat.type === 'private' ? languageTag(message.from?.language_code) : null,
    text: kind === 'text' ? (text ?? '') : unreadableText(kind, message.caption),
    kind,
    ...(kind !== 'text' && { media: telegramMedia(message, kind) }),
    answerable: true,
    platformSentAt: new Date(message.date * 1000),
  }
}
