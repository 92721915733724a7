import type { Channel } from '~/db/schema'
import { CHANNEL_MESSAGES } from '~/lib/channels'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'
import { getChannel } from './channels.server'
import { setFacebookWebhook, type MetaDeps } from './facebook.server'
import { setTelegramWebhook, type TelegramDeps } from './telegram.server'
import { setWhatsAppWebhook } from './whatsapp.server'

/** Everything the channel services may need: where the app is reached, the token key, every platform client. */
export type PlatformDeps = TelegramDeps & MetaDeps

/**
 * The Webhook Subscription switch for any channel: Telegram's setWebhook/deleteWebhook, a Facebook page's
 * subscribed_apps, a WhatsApp number's WABA subscription.
 */
export async function setChannelWebhook(
  scope: OrganizationScope,
  channelId: string,
  subscribed: boolean,
  deps: PlatformDeps,
): Promise<Channel> {
  const channel = await getChannel(scope, channelId)
  switch (channel.platformName) {
    case 'telegram':
      return setTelegramWebhook(scope, channelId, subscribed, deps)
    case 'facebook':
      return setFacebookWebhook(scope, channelId, subscribed, deps)
    case 'whatsapp':
      return setWhatsAppWebhook(scope, channelId, subscribed, deps)
    default:
      throw new AppError('VALIDATION_ERROR', CHANNEL_MESSAGES.noStrategy)
  }
}
