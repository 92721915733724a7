import type { Channel } from '~/db/schema'
import { CHANNEL_TEXTS } from '~/lib/channels/channels'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'
import { getChannel } from './channels.server'
import { setFacebookWebhook } from './facebook.server'
import type { PlatformDeps } from './platform-deps.server'
import { requirePlatform } from './platforms.server'
import { setTelegramWebhook } from './telegram.server'
import { setWhatsAppWebhook } from './whatsapp.server'

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
      throw new AppError('VALIDATION_ERROR', CHANNEL_TEXTS.noStrategy)
  }
}

/**
 * The webhooks endpoints (spec section 7, "Webhooks"): the same switch, for a channel that must be on the
 * platform the path names (another platform's channel is not found there).
 */
export async function switchPlatformWebhook(
  scope: OrganizationScope,
  platformName: string,
  channelId: string,
  subscribed: boolean,
  deps: PlatformDeps,
): Promise<Channel> {
  const platform = requirePlatform(platformName)
  const channel = await getChannel(scope, channelId)
  if (channel.platformName !== platform) throw new AppError('NOT_FOUND', CHANNEL_TEXTS.notFound)
  return setChannelWebhook(scope, channelId, subscribed, deps)
}
