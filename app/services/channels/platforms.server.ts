import { z } from 'zod'
import type { Channel } from '~/db/schema'
import { PlatformError, withPlatformRetries } from '~/integrations/platform-errors'
import {
  accessTokenSchema,
  facebookPageIdSchema,
  whatsappConnectSchema,
} from '~/lib/channels/connect-schemas'
import {
  CHANNEL_TEXTS,
  channelDisplayName,
  connectionStatus,
  PLATFORM_NAMES,
  type ChannelMetadata,
  type ConnectionStatus,
  type PlatformName,
} from '~/lib/channels/channels'
import { telegramTokenSchema } from '~/lib/channels/telegram'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError, ERROR_STATUS } from '~/utils/errors'
import { parseOrFail } from '~/utils/validation'
import { channelToken, listChannels, markChannelSynced } from './channels.server'
import { deleteChannel } from './delete-channel.server'
import {
  connectFacebookPages,
  longLivedPagesOf,
  requireMetaConfigured,
  verifyPageToken,
} from './facebook.server'
import { connectTelegramBot } from './telegram.server'
import type { PlatformDeps } from './platform-deps.server'
import { connectWhatsApp } from './whatsapp.server'

/**
 * The platforms endpoints (spec section 7, "Platforms"): an organization's connection to a platform is the set of
 * its channels there, one connection per bot, page or number. Connecting creates channels through the same
 * services as the Channels screen, disconnecting deletes them, a refresh asks the platform whether each token
 * still works. Tokens never leave the server: a connection's `authData` is not part of any answer (ADR 025).
 */

export type PlatformConnection = {
  connectionId: string
  platformName: PlatformName
  status: ConnectionStatus
  connectedAt: Date
  lastSync: Date
  accountInfo: { displayName: string } & ChannelMetadata
  expiresAt: null
  platformData: {
    channelId: string
    channelType: Channel['channelType']
    platformChannelId: string
    channelStatus: Channel['status']
    statusReason: string | null
    webhookSubscribed: boolean
    agentId: string | null
    agentEnabled: boolean
  }
}

export type PlatformStatus = {
  platformName: PlatformName
  status: ConnectionStatus
  /** Whether ReplyPilot can connect this platform (Instagram and TikTok are not offered yet). */
  supported: boolean
  connections: PlatformConnection[]
}

/** Platforms with a connection strategy; the others exist as names only (spec section 2, "Channels"). */
export const CONNECTABLE_PLATFORMS = ['telegram', 'facebook', 'whatsapp'] as const
type ConnectablePlatform = (typeof CONNECTABLE_PLATFORMS)[number]

/** A platform name from a URL: an unknown one is the spec's 404 "Platform not found". */
export function requirePlatform(name: string): PlatformName {
  const platform = PLATFORM_NAMES.find((known) => known === name)
  if (!platform) throw new AppError('INVALID_PLATFORM', ERROR_STATUS.INVALID_PLATFORM.message)
  return platform
}

function requireStrategy(platform: PlatformName): ConnectablePlatform {
  const connectable = CONNECTABLE_PLATFORMS.find((known) => known === platform)
  if (!connectable) throw new AppError('VALIDATION_ERROR', CHANNEL_TEXTS.noStrategy)
  return connectable
}

export function toConnection(channel: Channel): PlatformConnection {
  return {
    connectionId: channel.id,
    platformName: channel.platformName,
    status: connectionStatus(channel),
    connectedAt: channel.createdAt,
    lastSync: channel.lastSyncedAt ?? channel.createdAt,
    accountInfo: { displayName: channelDisplayName(channel), ...channel.metadata },
    expiresAt: null,
    platformData: {
      channelId: channel.id,
      channelType: channel.channelType,
      platformChannelId: channel.platformChannelId,
      channelStatus: channel.status,
      statusReason: channel.statusReason,
      webhookSubscribed: channel.webhookSubscribed,
      agentId: channel.agentId,
      agentEnabled: channel.agentEnabled,
    },
  }
}

/** One status for several connections: connected if any is, else pending, else error, else disconnected. */
function overallStatus(connections: PlatformConnection[]): ConnectionStatus {
  for (const status of ['connected', 'pending', 'error'] as const) {
    if (connections.some((connection) => connection.status === status)) return status
  }
  return 'disconnected'
}

const telegramAuthSchema = z.object({
  botToken: z
    .string({ error: CHANNEL_TEXTS.botTokenRequired })
    .trim()
    .min(1, { error: CHANNEL_TEXTS.botTokenRequired, abort: true })
    .pipe(telegramTokenSchema),
})
const facebookAuthSchema = z.object({ accessToken: accessTokenSchema })
const facebookOptionsSchema = z.object({
  /** Which of the person's pages to connect; all of them when absent. */
  pageIds: z.array(facebookPageIdSchema).max(100).optional(),
})

export type ConnectRequest = { authData?: Record<string, unknown>; options?: Record<string, unknown> }

/**
 * Telegram: `authData.botToken`. Facebook: the person's user token in `authData.accessToken`, every page they
 * administer (or `options.pageIds`) connected with long-lived page tokens. WhatsApp: Embedded Signup's
 * `authData` {code, wabaId, phoneNumberId, pin}.
 */
export async function connectPlatform(
  scope: OrganizationScope,
  platform: PlatformName,
  { authData = {}, options = {} }: ConnectRequest,
  deps: PlatformDeps,
): Promise<PlatformConnection[]> {
  switch (requireStrategy(platform)) {
    case 'telegram': {
      const { botToken } = parseOrFail(telegramAuthSchema, authData, 'authData')
      return [toConnection(await connectTelegramBot(scope, { botToken }, deps))]
    }
    case 'facebook': {
      requireMetaConfigured(deps)
      const { accessToken } = parseOrFail(facebookAuthSchema, authData, 'authData')
      const { pageIds } = parseOrFail(facebookOptionsSchema, options, 'options')
      // Read once, with the long-lived exchange: their tokens are the ones to keep.
      const pages = await longLivedPagesOf(accessToken, deps)
      const chosen = pageIds ? pages.filter((page) => pageIds.includes(page.id)) : pages
      if (chosen.length === 0) throw new AppError('VALIDATION_ERROR', CHANNEL_TEXTS.noFacebookPagesAvailable)
      return (await connectFacebookPages(scope, { pages: chosen }, deps)).map(toConnection)
    }
    case 'whatsapp': {
      const input = parseOrFail(whatsappConnectSchema, authData, 'authData')
      return [toConnection((await connectWhatsApp(scope, input, deps)).channel)]
    }
  }
}

const notFoundFor = (platform: PlatformName) =>
  new AppError(
    'NOT_FOUND',
    platform === 'whatsapp' ? CHANNEL_TEXTS.whatsappNotFound : CHANNEL_TEXTS.connectionNotFound,
  )

/** The organization's connections to the platform, or just the one named; none is "Connection not found". */
async function connectionsOf(scope: OrganizationScope, platform: PlatformName, connectionId?: string) {
  const channels = await listChannels(scope, { platformName: platform })
  const chosen = connectionId ? channels.filter((channel) => channel.id === connectionId) : channels
  if (chosen.length === 0) throw notFoundFor(platform)
  return chosen
}

/** Deletes the platform's channels (or the one named), releasing each at its platform first (best effort). */
export async function disconnectPlatform(
  scope: OrganizationScope,
  platform: PlatformName,
  { connectionId }: { connectionId?: string },
  deps: PlatformDeps,
): Promise<{ disconnected: string[]; warnings: string[] }> {
  const channels = await connectionsOf(scope, platform, connectionId)
  const warnings: string[] = []
  for (const channel of channels) {
    const { warning } = await deleteChannel(scope, channel.id, deps)
    if (warning) warnings.push(warning)
  }
  return { disconnected: channels.map((channel) => channel.id), warnings }
}

/** A platform's status from the organization's channels there. */
function statusOf(platform: PlatformName, channels: Channel[]): PlatformStatus {
  const connections = channels.map(toConnection)
  return {
    platformName: platform,
    status: overallStatus(connections),
    supported: CONNECTABLE_PLATFORMS.some((known) => known === platform),
    connections,
  }
}

export async function platformStatus(
  scope: OrganizationScope,
  platform: PlatformName,
): Promise<PlatformStatus> {
  return statusOf(platform, await listChannels(scope, { platformName: platform }))
}

/** Every platform, connected or not, in the spec's order. */
export async function allPlatformStatuses(scope: OrganizationScope): Promise<PlatformStatus[]> {
  const channels = await listChannels(scope)
  return PLATFORM_NAMES.map((platform) =>
    statusOf(
      platform,
      channels.filter((c) => c.platformName === platform),
    ),
  )
}

/** A connection checked less than this long ago is not asked again unless the refresh is forced. */
export const REFRESH_FRESH_MS = 5 * 60_000

type Verdict = { ok: true; metadata?: Partial<ChannelMetadata> } | { ok: false; reason: string }

/** Asks the platform whether the channel's token still works; a platform that cannot answer now throws. */
async function checkAtPlatform(channel: Channel, deps: PlatformDeps): Promise<Verdict> {
  const token = channelToken(channel, deps.encryptionKey)
  const refused = (error: unknown) => error instanceof PlatformError && error.code === 'AUTH_TOKEN_INVALID'
  switch (channel.platformName) {
    case 'telegram':
      try {
        const bot = await withPlatformRetries(() => deps.telegram.getMe(token))
        return { ok: true, metadata: { username: bot.username, firstName: bot.firstName } }
      } catch (error) {
        if (refused(error)) return { ok: false, reason: CHANNEL_TEXTS.botTokenInvalid }
        throw error
      }
    case 'facebook':
      requireMetaConfigured(deps)
      return (await verifyPageToken(token, channel.platformChannelId, deps))
        ? { ok: true }
        : { ok: false, reason: CHANNEL_TEXTS.facebookInvalid }
    case 'whatsapp':
      requireMetaConfigured(deps)
      try {
        const phone = await withPlatformRetries(() =>
          deps.graph.getPhoneNumber(token, channel.platformChannelId),
        )
        return {
          ok: true,
          metadata: { verifiedName: phone.verified_name, phoneNumber: phone.display_phone_number },
        }
      } catch (error) {
        if (refused(error)) return { ok: false, reason: CHANNEL_TEXTS.whatsappInvalid }
        throw error
      }
    default:
      throw new AppError('VALIDATION_ERROR', CHANNEL_TEXTS.noStrategy)
  }
}

/**
 * Checks each connection's token at its platform (only those not checked in the last 5 minutes, unless
 * `forceRefresh`): a working token makes the channel active again and updates what the platform says of the
 * account; a refused one marks it `error` with the reason. A platform that cannot be reached leaves the channel
 * as it was and the refresh fails with the platform's message.
 */
export async function refreshPlatform(
  scope: OrganizationScope,
  platform: PlatformName,
  { forceRefresh = false, connectionId }: { forceRefresh?: boolean; connectionId?: string },
  deps: PlatformDeps,
  now = new Date(),
): Promise<PlatformStatus> {
  requireStrategy(platform)
  const channels = await connectionsOf(scope, platform, connectionId)
  for (const channel of channels) {
    const checkedAt = channel.lastSyncedAt?.getTime() ?? 0
    if (!forceRefresh && now.getTime() - checkedAt < REFRESH_FRESH_MS) continue
    let verdict: Verdict
    try {
      verdict = await checkAtPlatform(channel, deps)
    } catch (error) {
      if (error instanceof PlatformError) throw new AppError('UPSTREAM_ERROR', error.message)
      throw error
    }
    await markChannelSynced(scope, channel.id, {
      status: verdict.ok ? 'active' : 'error',
      statusReason: verdict.ok ? null : verdict.reason,
      metadata:
        verdict.ok && verdict.metadata ? { ...channel.metadata, ...verdict.metadata } : channel.metadata,
      lastSyncedAt: now,
    })
  }
  return platformStatus(scope, platform)
}
