import type { OrganizationScope } from '~/services/organizations/scope.server'
import { deleteChannelRow, getChannel } from './channels.server'
import { releaseTelegramBot, type TelegramDeps } from './telegram.server'

/**
 * Deletes a channel of the organization, first releasing it at its platform (Telegram: deleteWebhook). A platform
 * that cannot be reached or refuses the old token does not stop the deletion; its reason is returned as a warning.
 */
export async function deleteChannel(
  scope: OrganizationScope,
  channelId: string,
  deps: TelegramDeps,
): Promise<{ warning?: string }> {
  const channel = await getChannel(scope, channelId)
  const warning = await releaseTelegramBot(channel, deps)
  await deleteChannelRow(scope, channelId)
  return warning ? { warning } : {}
}
