import { and, asc, eq, inArray } from 'drizzle-orm'
import { isUniqueViolation } from '~/db/errors.server'
import { channels, type Channel } from '~/db/schema'
import {
  CHANNEL_TEXTS,
  type ChannelMetadata,
  type ChannelView,
  type TelegramUpdates,
} from '~/lib/channels/channels'
import { getAgent } from '~/services/agents/agents.server'
import { CONVERSATION_TEXTS } from '~/lib/conversations/conversations'
import { findMember } from '~/services/organizations/member-lookup.server'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { decryptSecret, encryptSecret } from '~/utils/crypto.server'
import { AppError } from '~/utils/errors'
import { isUuid } from '~/lib/shared/input'

export type ChannelDeps = {
  publicUrl: string
  encryptionKey: string
  /** Webhooks under publicUrl, or long polling by the workers (no public URL): see resolveTelegramUpdates. */
  telegramUpdates: TelegramUpdates
}

/** Where a channel's webhook would be, and whether Telegram channels use one at all. */
export type WebhookSetting = Pick<ChannelDeps, 'publicUrl' | 'telegramUpdates'>

/** Telegram posts to a URL per channel; Meta posts every page and number to the app's one URL. */
export function webhookUrlFor(channel: Pick<Channel, 'id' | 'platformName'>, publicUrl: string): string {
  return channel.platformName === 'telegram'
    ? `${publicUrl}/webhooks/telegram/${channel.id}`
    : `${publicUrl}/webhooks/meta`
}

/** Whether the channel's messages come by long polling rather than a webhook. */
export function isPolled(channel: Pick<Channel, 'platformName'>, setting: WebhookSetting): boolean {
  return channel.platformName === 'telegram' && setting.telegramUpdates === 'polling'
}

/**
 * The browser's view: no token, no secret. A polled Telegram channel has no webhook URL: its subscription means
 * that the workers poll it.
 */
export function toChannelView(channel: Channel, setting: WebhookSetting): ChannelView {
  return {
    id: channel.id,
    organizationId: channel.organizationId,
    platformName: channel.platformName,
    platformChannelId: channel.platformChannelId,
    channelType: channel.channelType,
    status: channel.status,
    statusReason: channel.statusReason,
    agentId: channel.agentId,
    agentEnabled: channel.agentEnabled,
    webhookSubscribed: channel.webhookSubscribed,
    webhookUrl:
      channel.webhookSubscribed && !isPolled(channel, setting)
        ? webhookUrlFor(channel, setting.publicUrl)
        : null,
    autoResumeMinutes: channel.autoResumeMinutes,
    metadata: channel.metadata,
    createdAt: channel.createdAt,
  }
}

export async function listChannels(
  scope: OrganizationScope,
  filter: { platformName?: Channel['platformName'] } = {},
) {
  return (
    scope.db
      .select()
      .from(channels)
      .where(
        and(
          eq(channels.organizationId, scope.organizationId),
          filter.platformName ? eq(channels.platformName, filter.platformName) : undefined,
        ),
      )
      // Pages connected together share their creation time: the id keeps their order the same from one list to the next.
      .orderBy(asc(channels.createdAt), asc(channels.id))
  )
}

/** A channel of the scope's organization, with its encrypted token: for services only, never for the browser. */
export async function getChannel(scope: OrganizationScope, channelId: string): Promise<Channel> {
  if (!isUuid(channelId)) throw new AppError('NOT_FOUND', CHANNEL_TEXTS.notFound)
  const [channel] = await scope.db
    .select()
    .from(channels)
    .where(and(eq(channels.organizationId, scope.organizationId), eq(channels.id, channelId)))
    .limit(1)
  if (!channel) throw new AppError('NOT_FOUND', CHANNEL_TEXTS.notFound)
  return channel
}

export type NewChannel = {
  platformName: Channel['platformName']
  channelType: Channel['channelType']
  platformChannelId: string
  accessToken: string
  metadata: ChannelMetadata
  status?: Channel['status']
  webhookSubscribed?: boolean
}

/** Stores a newly connected channel; the same bot, page or number cannot be connected twice. */
export async function insertChannel(
  scope: OrganizationScope,
  deps: Pick<ChannelDeps, 'encryptionKey'>,
  input: NewChannel,
): Promise<Channel> {
  const [channel] = await insertChannels(scope, deps, [input])
  return channel
}

/**
 * Stores several channels in one statement: all of them, or none (one already connected refuses them all). Each
 * counts as checked now: connecting just had its platform accept the token (issue 34: health right after connect).
 */
export async function insertChannels(
  scope: OrganizationScope,
  deps: Pick<ChannelDeps, 'encryptionKey'>,
  inputs: NewChannel[],
): Promise<Channel[]> {
  const now = new Date()
  try {
    return await scope.db
      .insert(channels)
      .values(
        inputs.map((input) => ({
          healthCheckedAt: now,
          organizationId: scope.organizationId,
          platformName: input.platformName,
          channelType: input.channelType,
          platformChannelId: input.platformChannelId,
          accessTokenEncrypted: encryptSecret(input.accessToken, deps.encryptionKey),
          metadata: input.metadata,
          status: input.status ?? 'active',
          webhookSubscribed: input.webhookSubscribed ?? false,
        })),
      )
      .returning()
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', CHANNEL_TEXTS.alreadyConnected)
    throw error
  }
}

/**
 * Which of these platform ids are connected already, in any organization (a page or number belongs to one
 * channel product-wide). Only the ids come back: nothing of another organization's channel.
 */
export async function findConnectedPlatformIds(
  scope: OrganizationScope,
  platformName: Channel['platformName'],
  platformChannelIds: string[],
): Promise<string[]> {
  if (platformChannelIds.length === 0) return []
  const rows = await scope.db
    .select({ platformChannelId: channels.platformChannelId })
    .from(channels)
    .where(
      and(eq(channels.platformName, platformName), inArray(channels.platformChannelId, platformChannelIds)),
    )
  return rows.map((row) => row.platformChannelId)
}

async function updateChannelRow(scope: OrganizationScope, channelId: string, values: Partial<Channel>) {
  if (!isUuid(channelId)) throw new AppError('NOT_FOUND', CHANNEL_TEXTS.notFound)
  const [updated] = await scope.db
    .update(channels)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(channels.organizationId, scope.organizationId), eq(channels.id, channelId)))
    .returning()
  if (!updated) throw new AppError('NOT_FOUND', CHANNEL_TEXTS.notFound)
  return updated
}

/** Assigns an active agent of the same organization; re-sending with another enabled flag toggles it. */
export async function assignAgent(
  scope: OrganizationScope,
  channelId: string,
  { agentId, agentEnabled = true }: { agentId: string; agentEnabled?: boolean },
): Promise<Channel> {
  const channel = await getChannel(scope, channelId)
  const agent = await getAgent(scope, agentId)
  // Re-sending the current assignment only switches it on or off, even if the agent has since been deactivated.
  if (agent.status !== 'active' && channel.agentId !== agent.id) {
    throw new AppError('VALIDATION_ERROR', 'Only an active agent can be assigned', {
      agentId: ['Only an active agent can be assigned'],
    })
  }
  return updateChannelRow(scope, channelId, { agentId: agent.id, agentEnabled })
}

export async function removeAgent(scope: OrganizationScope, channelId: string): Promise<Channel> {
  return updateChannelRow(scope, channelId, { agentId: null, agentEnabled: true })
}

/**
 * PATCH: what a client may change directly (the display name, the agent switch, the inbox's hand-back and who
 * gets the conversations that need a person: a member's uid, or null for nobody).
 */
export async function updateChannel(
  scope: OrganizationScope,
  channelId: string,
  patch: {
    name?: string
    agentEnabled?: boolean
    autoResumeMinutes?: number
    defaultAssigneeUid?: string | null
  },
): Promise<Channel> {
  const channel = await getChannel(scope, channelId)
  const assignee = patch.defaultAssigneeUid ? await findMember(scope, patch.defaultAssigneeUid) : null
  if (patch.defaultAssigneeUid && !assignee) {
    throw new AppError('VALIDATION_ERROR', CONVERSATION_TEXTS.assigneeNotMember)
  }
  return updateChannelRow(scope, channelId, {
    ...(patch.defaultAssigneeUid === undefined ? {} : { defaultAssigneeId: assignee?.id ?? null }),
    ...(patch.agentEnabled === undefined ? {} : { agentEnabled: patch.agentEnabled }),
    ...(patch.autoResumeMinutes === undefined ? {} : { autoResumeMinutes: patch.autoResumeMinutes }),
    ...(patch.name === undefined ? {} : { metadata: { ...channel.metadata, name: patch.name } }),
  })
}

export async function setWebhookState(
  scope: OrganizationScope,
  channelId: string,
  state: { webhookSubscribed: boolean; webhookSecretHash: string | null },
) {
  return updateChannelRow(scope, channelId, state)
}

export async function markChannelStatus(
  scope: OrganizationScope,
  channelId: string,
  status: Channel['status'],
  statusReason: string | null,
) {
  return updateChannelRow(scope, channelId, { status, statusReason })
}

/** A refresh's outcome: the status the platform's answer implies, what it said of the account, when. */
export async function markChannelSynced(
  scope: OrganizationScope,
  channelId: string,
  state: Pick<Channel, 'status' | 'statusReason' | 'metadata' | 'lastSyncedAt'>,
) {
  return updateChannelRow(scope, channelId, state)
}

/**
 * Reconnect (docs/decisions/046): the channel takes a new token that its platform just accepted; out of error,
 * its health problem cleared, checked now.
 */
export async function reconnectChannel(
  scope: OrganizationScope,
  deps: Pick<ChannelDeps, 'encryptionKey'>,
  channelId: string,
  { accessToken, metadata }: { accessToken: string; metadata: ChannelMetadata },
): Promise<Channel> {
  const now = new Date()
  return updateChannelRow(scope, channelId, {
    accessTokenEncrypted: encryptSecret(accessToken, deps.encryptionKey),
    metadata,
    status: 'active',
    statusReason: null,
    healthProblem: null,
    healthDetail: null,
    healthCheckedAt: now,
    lastSyncedAt: now,
  })
}

/** The organization's channel for a bot, page or number, if it has one. */
export async function findChannelByPlatformId(
  scope: OrganizationScope,
  platformName: Channel['platformName'],
  platformChannelId: string,
): Promise<Channel | undefined> {
  const [channel] = await scope.db
    .select()
    .from(channels)
    .where(
      and(
        eq(channels.organizationId, scope.organizationId),
        eq(channels.platformName, platformName),
        eq(channels.platformChannelId, platformChannelId),
      ),
    )
    .limit(1)
  return channel
}

export async function deleteChannelRow(scope: OrganizationScope, channelId: string): Promise<void> {
  await scope.db
    .delete(channels)
    .where(and(eq(channels.organizationId, scope.organizationId), eq(channels.id, channelId)))
}

/** The channel's platform token, decrypted for a platform call; never returned to a caller outside services. */
export function channelToken(channel: Channel, encryptionKey: string): string {
  if (!channel.accessTokenEncrypted) throw new AppError('VALIDATION_ERROR', CHANNEL_TEXTS.noAccessToken)
  return decryptSecret(channel.accessTokenEncrypted, encryptionKey)
}
