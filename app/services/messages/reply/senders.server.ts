import type { Channel } from '~/db/schema'
import type { MessengerClient, MessengerTag } from '~/integrations/meta/messenger.server'
import type { WhatsAppClient } from '~/integrations/meta/whatsapp.server'
import type { Platform } from '~/integrations/platform-errors'
import type { OutboundFile } from '~/integrations/outbound-file'
import type { TelegramClient } from '~/integrations/telegram/bot-api.server'
import { CAPTION_LIMITS } from '~/lib/conversations/attachments'
import { PLATFORM_TEXT_LIMITS, TYPING_DELAY_MS, TYPING_RENEW_MS } from '~/lib/conversations/reply-pipeline'

/** The platform calls an answer needs. */
export type SenderClients = {
  telegram: Pick<TelegramClient, 'sendMessage' | 'sendChatAction' | 'sendFile'>
  graph: Pick<MessengerClient, 'sendMessengerText' | 'sendMessengerTyping' | 'sendMessengerFile'> &
    Pick<WhatsAppClient, 'sendWhatsAppText' | 'sendWhatsAppFile'>
}

/** One platform's way of answering in one conversation. */
export type Sender = {
  platform: Platform
  limit: number
  /** How long a file's caption may be; 0: the platform takes none (the text follows the file). */
  captionLimit: number
  typing(): Promise<void>
  send(text: string): Promise<{ platformMessageId: string }>
  /** A person's attachment, with its caption when it fits. */
  sendFile(file: OutboundFile): Promise<{ platformMessageId: string }>
}

export const isReplyPlatform = (name: Channel['platformName']): name is Platform =>
  name === 'telegram' || name === 'facebook' || name === 'whatsapp'

/**
 * How the agent answers in one conversation of the channel: Telegram's sendMessage, Messenger's Send API
 * (`messaging_type: RESPONSE`, or a person's tagged message after the 24 hours; typing_on meanwhile) or a WhatsApp Cloud API text message. WhatsApp shows typing
 * only while marking the person's message read, which we do not do on their behalf: no indicator there.
 */
export function senderFor(
  clients: SenderClients,
  channel: Channel,
  token: string,
  chatId: string,
  options: { messengerTag?: MessengerTag } = {},
): Sender {
  switch (channel.platformName) {
    case 'facebook': {
      const pageId = channel.platformChannelId
      return {
        platform: 'facebook',
        limit: PLATFORM_TEXT_LIMITS.facebook,
        captionLimit: CAPTION_LIMITS.facebook,
        typing: () => clients.graph.sendMessengerTyping(token, pageId, chatId),
        async send(text) {
          const { messageId } = await clients.graph.sendMessengerText(token, pageId, {
            recipientId: chatId,
            text,
            tag: options.messengerTag,
          })
          return { platformMessageId: messageId }
        },
        async sendFile(file) {
          const { messageId } = await clients.graph.sendMessengerFile(token, pageId, {
            recipientId: chatId,
            file,
            tag: options.messengerTag,
          })
          return { platformMessageId: messageId }
        },
      }
    }
    case 'whatsapp': {
      const phoneNumberId = channel.platformChannelId
      return {
        platform: 'whatsapp',
        limit: PLATFORM_TEXT_LIMITS.whatsapp,
        captionLimit: CAPTION_LIMITS.whatsapp,
        typing: async () => undefined,
        async send(text) {
          const { messageId } = await clients.graph.sendWhatsAppText(token, phoneNumberId, {
            to: chatId,
            text,
          })
          return { platformMessageId: messageId }
        },
        async sendFile(file) {
          const { messageId } = await clients.graph.sendWhatsAppFile(token, phoneNumberId, { to: chatId, file })
          return { platformMessageId: messageId }
        },
      }
    }
    default:
      return {
        platform: 'telegram',
        limit: PLATFORM_TEXT_LIMITS.telegram,
        captionLimit: CAPTION_LIMITS.telegram,
        typing: () => clients.telegram.sendChatAction(token, { chatId, action: 'typing' }),
        async send(text) {
          const { messageId } = await clients.telegram.sendMessage(token, { chatId, text })
          return { platformMessageId: `${chatId}:${messageId}` }
        },
        async sendFile(file) {
          const { messageId } = await clients.telegram.sendFile(token, { chatId, file })
          return { platformMessageId: `${chatId}:${messageId}` }
        },
      }
  }
}

/**
 * "typing..." while `work` runs, once it has taken TYPING_DELAY_MS: an answer faster than that needs no indicator
 * (and spares the platform a call, which counts against the bot's rate limits). A failed indicator is ignored:
 * a refusal that matters (an invalid token, a blocked bot) meets the send too, which reports it.
 */
export async function whileTyping<T>(sender: Sender, work: () => Promise<T>): Promise<T> {
  let renew: NodeJS.Timeout | undefined
  const typing = () => void sender.typing().catch(() => undefined)
  const start = setTimeout(() => {
    typing()
    renew = setInterval(typing, TYPING_RENEW_MS)
  }, TYPING_DELAY_MS)
  try {
    return await work()
  } finally {
    clearTimeout(start)
    clearInterval(renew)
  }
}
