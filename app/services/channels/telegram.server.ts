import type { Channel } from '~/db/schema'
import { PlatformError, withPlatformRetries } from '~/integrations/platform-errors'
import type { TelegramClient } from '~/integrations/telegram/bot-api.server'
import { CHANNEL_TEXTS } from '~/lib/channels/channels'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { decryptSecret, randomSecret, sha256 } from '~/utils/crypto.server'
import { AppError } from '~/utils/errors'
import { hasDeadToken } from '~/lib/channels/health'
import {
  findChannelByPlatformId,
  getChannel,
  insertChannel,
  reconnectChannel,
  isPolled,
  setWebhookState,
  webhookUrlFor,
  type ChannelDeps,
} from './channels.server'

export type TelegramDeps = ChannelDeps & {
  telegram: Pick<TelegramClient, 'getMe' | 'setWebhook' | 'deleteWebhook'>
}

/**
 * Checks the token with getMe and stores the bot as a channel (the token encrypted). A bot that is already this
 * organization's channel with a dead token is reconnected instead: it takes the new token (docs/decisions/046);
 * any other bot connected already is refused.
 */
export async function connectTelegramBot(
  scope: OrganizationScope,
  { botToken }: { botToken: string },
  deps: TelegramDeps,
): Promise<Channel> {
  let bot
  try {
    // Retryable failures (network, 429, 5xx) are retried with the spec's policy before the user is told.
    bot = await withPlatformRetries(() => deps.telegram.getMe(botToken))
  } catch (error) {
    if (error instanceof PlatformError && error.code === 'AUTH_TOKEN_INVALID') {
      throw new AppError('VALIDATION_ERROR', CHANNEL_TEXTS.botTokenInvalid, {
        botToken: [CHANNEL_TEXTS.botTokenInvalid],
      })
    }
    throw new AppError('UPSTREAM_ERROR', CHANNEL_TEXTS.botInfoFailed)
  }
  const existing = await findChannelByPlatformId(scope, 'telegram', String(bot.id))
  const metadata = {
    name: bot.firstName,
    username: bot.username,
    firstName: bot.firstName,
    botId: String(bot.id),
    canJoinGroups: bot.canJoinGroups,
    canReadAllGroupMessages: bot.canReadAllGroupMessages,
    supportsInlineQueries: bot.supportsInlineQueries,
  }
  if (existing && hasDeadToken(existing)) {
    return reconnectChannel(scope, deps, existing.id, {
      accessToken: botToken,
      metadata: { ...existing.metadata, ...metadata, name: existing.metadata.name ?? metadata.name },
    })
  }
  return insertChannel(scope, deps, {
    platformName: 'telegram',
    channelType: 'telegram_bot',
    platformChannelId: String(bot.id),
    accessToken: botToken,
    metadata,
  })
}

function botTokenOf(channel: Channel, encryptionKey: string): string {
  if (!channel.accessTokenEncrypted) throw new AppError('VALIDATION_ERROR', 'No access token found')
  return decryptSecret(channel.accessTokenEncrypted, encryptionKey)
}

/**
 * On: setWebhook to the channel's URL with a fresh secret (only its hash is kept). Off: deleteWebhook. Without a
 * public URL (long polling) the switch says whether the workers poll the bot: on removes any webhook (it would
 * block getUpdates) and keeps no secret, since no webhook call can be accepted; off removes it too.
 */
export async function setTelegramWebhook(
  scope: OrganizationScope,
  channelId: string,
  subscribed: boolean,
  deps: TelegramDeps,
): Promise<Channel> {
  const channel = await getChannel(scope, channelId)
  if (channel.platformName !== 'telegram') throw new AppError('VALIDATION_ERROR', 'Not a Telegram channel')
  const token = botTokenOf(channel, deps.encryptionKey)
  try {
    if (subscribed && isPolled(channel, deps)) {
      await deps.telegram.deleteWebhook(token)
      return await setWebhookState(scope, channelId, { webhookSubscribed: true, webhookSecretHash: null })
    }
    if (subscribed) {
      const secret = randomSecret()
      await deps.telegram.setWebhook(token, {
        url: webhookUrlFor(channel, deps.publicUrl),
        secretToken: secret,
      })
      return await setWebhookState(scope, channelId, {
        webhookSubscribed: true,
        webhookSecretHash: sha256(secret),
      })
    }
    await deps.telegram.deleteWebhook(token)
    return await setWebhookState(scope, channelId, { webhookSubscribed: false, webhookSecretHash: null })
  } catch (error) {
    if (error instanceof AppError) throw error
    const reason = error instanceof PlatformError ? error.message : CHANNEL_TEXTS.webhookFailed
    throw new AppError('UPSTREAM_ERROR', reason)
  }
}

/** Before a Telegram channel goes: its webhook is removed, best effort (a dead token must not block deletion). */
export async function releaseTelegramBot(channel: Channel, deps: TelegramDeps): Promise<string | undefined> {
  if (channel.platformName !== 'telegram' || !channel.webhookSubscribed) return undefined
  try {
    await deps.telegram.deleteWebhook(botTokenOf(channel, deps.encryptionKey))
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}
