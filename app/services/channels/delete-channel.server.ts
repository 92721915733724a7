import type { OrganizationScope } from '~/services/organizations/scope.server'
import { deleteChannelRow, getChannel } from './channels.server'
import { releaseFacebookPage } from './facebook.server'
import { releaseTelegramBot } from './telegram.server'
import type { PlatformDeps } from './platform-deps.server'
import { releaseWhatsAppNumber } from './whatsapp.server'

/**
 * Deletes a channel of the organization, first releasing it at its platform (Telegram: deleteWebhook; Facebook:
 * the page's subscription; WhatsApp: the WABA's, with its last number). A platform that cannot be reached or
 * refuses the old token does not stop the deletion; its reason is returned as a warning.
 */
export async function deleteChannel(
  scope: OrganizationScope,
  channelId: string,
  deps: PlatformDeps,
): Promise<{ warning?: string }> {
  const channel = await getChannel(scope, channelId)
  const warning =
    (await releaseTelegramBot(channel, deps)) ??
    (await releaseFacebookPage(channel, deps)) ??
    (await releaseWhatsAppNumber(scope, channel, deps))
  await deleteChannelRow(scope, channelId)
  return warning ? { warning } : {}
}
