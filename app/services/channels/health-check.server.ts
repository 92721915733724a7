import { and, asc, eq, inArray } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { channels, type Channel } from '~/db/schema'
import type { GraphClient } from '~/integrations/meta/graph.server'
import { PlatformError } from '~/integrations/platform-errors'
import type { TelegramClient } from '~/integrations/telegram/bot-api.server'
import {
  HEALTH_TEXTS,
  REQUIRED_SCOPES,
  type ChannelHealth,
  type ChannelHealthProblem,
} from '~/lib/channels/health'
import { CHANNEL_TEXTS, type ChannelMetadata } from '~/lib/channels/channels'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { decryptSecret } from '~/utils/crypto.server'
import { AppError } from '~/utils/errors'
import type { Logger } from '~/utils/logger.server'
import { getChannel } from './channels.server'
import type { MetaAppSettings } from './facebook.server'
import { getChannelHealth } from './health.server'

/** What a health check asks the platforms with. */
export type HealthCheckDeps = {
  telegram: Pick<TelegramClient, 'getMe'>
  graph: Pick<GraphClient, 'debugToken' | 'getPageSubscribedApps' | 'getWabaSubscribedApps'>
  encryptionKey: string
  meta: MetaAppSettings
  now?: () => Date
}

/** The platform's answer: nothing wrong (with what it said of the account), or the problem and its details. */
type Verdict =
  | { problem: null; metadata?: Partial<ChannelMetadata> }
  | { problem: ChannelHealthProblem; detail: string | null }

const CHECKED_PLATFORMS = ['telegram', 'facebook', 'whatsapp'] as const
const refused = (error: unknown) => error instanceof PlatformError && error.code === 'AUTH_TOKEN_INVALID'
const TOKEN_INVALID: Verdict = { problem: 'token_invalid', detail: null }

/** Telegram: getMe answers for a working token, 401 for a revoked one. */
async function askTelegram(token: string, deps: HealthCheckDeps): Promise<Verdict> {
  try {
    const bot = await deps.telegram.getMe(token)
    return { problem: null, metadata: { username: bot.username, firstName: bot.firstName } }
  } catch (error) {
    if (refused(error)) return TOKEN_INVALID
    throw error
  }
}

/**
 * Meta: debug_token (with the app token) says whether the token is valid and which permissions it carries; then,
 * while our subscription is on, the page's or WABA's subscribed_apps must still list the app.
 */
async function askMeta(
  channel: Channel,
  platform: 'facebook' | 'whatsapp',
  token: string,
  deps: HealthCheckDeps,
): Promise<Verdict> {
  const info = await deps.graph.debugToken(token)
  if (!info.isValid) return TOKEN_INVALID
  const missing = REQUIRED_SCOPES[platform].filter((scope) => !info.scopes.includes(scope))
  if (missing.length > 0) return { problem: 'permissions_missing', detail: missing.join(',') }
  if (!channel.webhookSubscribed) return { problem: null }
  let apps: string[] | undefined
  try {
    if (platform === 'facebook') {
      apps = await deps.graph.getPageSubscribedApps(token, channel.platformChannelId)
    } else if (channel.metadata.wabaId) {
      apps = await deps.graph.getWabaSubscribedApps(token, channel.metadata.wabaId)
    }
  } catch (error) {
    if (refused(error)) return TOKEN_INVALID
    throw error
  }
  if (apps && !apps.includes(deps.meta.appId)) return { problem: 'subscription_missing', detail: null }
  return { problem: null }
}

/** Asks the channel's platform; undefined when it cannot be asked (no token, Meta not configured, no strategy). */
async function askPlatform(channel: Channel, deps: HealthCheckDeps): Promise<Verdict | undefined> {
  if (!channel.accessTokenEncrypted) return TOKEN_INVALID
  const token = decryptSecret(channel.accessTokenEncrypted, deps.encryptionKey)
  switch (channel.platformName) {
    case 'telegram':
      return askTelegram(token, deps)
    case 'facebook':
    case 'whatsapp':
      return deps.meta.configured ? askMeta(channel, channel.platformName, token, deps) : undefined
    default:
      return undefined
  }
}

const INVALID_TOKEN_TEXTS: Record<(typeof CHECKED_PLATFORMS)[number], string> = {
  telegram: CHANNEL_TEXTS.botTokenInvalid,
  facebook: CHANNEL_TEXTS.facebookInvalid,
  whatsapp: CHANNEL_TEXTS.whatsappInvalid,
}

/**
 * Records the verdict on the channel. A refused token also puts the channel in error (as a refused send or poll
 * does: the card's red dot, and the reply pipeline leaves its messages to a person); a working one takes it out
 * of error and counts as a sync (as a refresh does).
 */
async function recordVerdict(db: Database, channel: Channel, verdict: Verdict, now: Date) {
  const tokenDead = verdict.problem === 'token_invalid'
  const invalidText =
    channel.platformName === 'facebook' || channel.platformName === 'whatsapp'
      ? INVALID_TOKEN_TEXTS[channel.platformName]
      : INVALID_TOKEN_TEXTS.telegram
  await db
    .update(channels)
    .set({
      healthCheckedAt: now,
      healthProblem: verdict.problem,
      healthDetail: verdict.problem === null ? null : verdict.detail,
      ...(tokenDead
        ? { status: 'error' as const, statusReason: invalidText }
        : {
            lastSyncedAt: now,
            ...(channel.status === 'error' && { status: 'active' as const, statusReason: null }),
            ...(verdict.problem === null &&
              verdict.metadata && { metadata: { ...channel.metadata, ...verdict.metadata } }),
          }),
      updatedAt: now,
    })
    .where(eq(channels.id, channel.id))
}

/** Checks one channel and records the answer; false when the platform could not be asked. */
async function checkChannel(db: Database, channel: Channel, deps: HealthCheckDeps): Promise<boolean> {
  const verdict = await askPlatform(channel, deps)
  if (!verdict) return false
  await recordVerdict(db, channel, verdict, deps.now?.() ?? new Date())
  return true
}

/**
 * "Check now" in Channel Details and the API's check: asks the platform at once and answers the channel's health.
 * A platform that cannot answer now (network, 5xx, rate limit) leaves the last result as it was: UPSTREAM_ERROR.
 */
export async function checkChannelHealth(
  scope: OrganizationScope,
  channelId: string,
  deps: HealthCheckDeps,
): Promise<ChannelHealth> {
  const channel = await getChannel(scope, channelId)
  try {
    await checkChannel(scope.db, channel, deps)
  } catch (error) {
    if (error instanceof PlatformError) throw new AppError('UPSTREAM_ERROR', HEALTH_TEXTS.checkFailed)
    throw error
  }
  return getChannelHealth(scope, channelId)
}

/**
 * The scheduled check: every channel that can be asked (of one organization when named), one after the other (a
 * few calls each, every few hours). A channel whose check fails (its platform cannot answer now) keeps its last
 * result and is logged; the others are still checked.
 */
export async function checkAllChannelsHealth(
  deps: HealthCheckDeps & { db: Database; logger: Logger },
  { organizationId }: { organizationId?: string } = {},
): Promise<{ checked: number; failed: number }> {
  const rows = await deps.db
    .select()
    .from(channels)
    .where(
      and(
        inArray(channels.platformName, [...CHECKED_PLATFORMS]),
        organizationId ? eq(channels.organizationId, organizationId) : undefined,
      ),
    )
    .orderBy(asc(channels.id))
  let checked = 0
  let failed = 0
  for (const channel of rows) {
    try {
      if (await checkChannel(deps.db, channel, deps)) checked += 1
    } catch (error) {
      failed += 1
      const reason = error instanceof Error ? error.message : String(error)
      deps.logger.warn('channel health check failed', { channelId: channel.id, reason })
    }
  }
  return { checked, failed }
}
