import { and, asc, eq, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { agents, channels, messages, type Agent, type Channel } from '~/db/schema'
import { CHANNELS_PATH, CONNECT_PATHS, channelPath } from '~/lib/channels/paths'
import {
  DELIVERY_FAILURE_STREAK,
  HEALTH_ACTIONS,
  HEALTH_TEXTS,
  hasDeadToken,
  type ChannelHealth,
  type ChannelHealthReason,
} from '~/lib/channels/health'
import { channelDisplayName, CHANNEL_TEXTS } from '~/lib/channels/channels'
import { REPLY_FAILURES } from '~/lib/conversations/reply-pipeline'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'
import { isUuid } from '~/lib/shared/input'

/**
 * Whether the channel's latest DELIVERY_FAILURE_STREAK deliveries all failed: its outbound messages that were
 * tried (not pending; not an answer withheld because a person took over), newest first, read backwards from the
 * (channel, sequence) index of outbound messages.
 */
const deliveriesFailing = sql<boolean>`(
  select count(*) = ${DELIVERY_FAILURE_STREAK} and bool_and(latest.status = 'failed')
  from (
    select ${messages.status} as status from ${messages}
    where ${messages.channelId} = ${channels.id} and ${messages.direction} = 'outbound'
      and ${messages.status} <> 'pending'
      and ${messages.failureReason} is distinct from ${REPLY_FAILURES.answerWithheld}
    order by ${messages.sequence} desc
    limit ${DELIVERY_FAILURE_STREAK}
  ) latest)`

const healthColumns = {
  channel: {
    id: channels.id,
    platformName: channels.platformName,
    channelType: channels.channelType,
    metadata: channels.metadata,
    status: channels.status,
    webhookSubscribed: channels.webhookSubscribed,
    agentId: channels.agentId,
    agentEnabled: channels.agentEnabled,
    healthCheckedAt: channels.healthCheckedAt,
    healthProblem: channels.healthProblem,
    healthDetail: channels.healthDetail,
  },
  agent: { name: agents.name, status: agents.status },
  deliveriesFailing,
}

export type HealthRow = {
  channel: Pick<
    Channel,
    | 'id'
    | 'platformName'
    | 'channelType'
    | 'metadata'
    | 'status'
    | 'webhookSubscribed'
    | 'agentId'
    | 'agentEnabled'
    | 'healthCheckedAt'
    | 'healthProblem'
    | 'healthDetail'
  >
  agent: Pick<Agent, 'name' | 'status'> | null
  deliveriesFailing: boolean | null
}

/** Where a dead or short token is replaced: Telegram's connect dialog (same bot, new token), Meta's Add Channel. */
function reconnectHref(channel: HealthRow['channel']): string {
  return channel.platformName === 'telegram' ? CONNECT_PATHS.telegram : CHANNELS_PATH
}

/** Why the channel needs a person, each reason with the action that fixes it; none: it is fine. */
export function reasonsOf({ channel, agent, deliveriesFailing }: HealthRow): ChannelHealthReason[] {
  const details = channelPath(channel.id)
  const reasons: ChannelHealthReason[] = []
  const reconnect = { label: HEALTH_ACTIONS.reconnect, href: reconnectHref(channel) }
  const switchOn = { label: HEALTH_ACTIONS.switchOn, href: details }
  if (hasDeadToken(channel)) {
    reasons.push({ code: 'token_invalid', message: HEALTH_TEXTS.tokenInvalid, action: reconnect })
  } else if (channel.healthProblem === 'permissions_missing') {
    const missing = (channel.healthDetail ?? '').split(',').filter(Boolean)
    reasons.push({
      code: 'permissions_missing',
      message: HEALTH_TEXTS.permissionsMissing(missing),
      action: reconnect,
    })
  }
  if (channel.healthProblem === 'subscription_missing' && channel.webhookSubscribed) {
    reasons.push({
      code: 'subscription_missing',
      message: HEALTH_TEXTS.subscriptionMissing,
      action: switchOn,
    })
  }
  if (deliveriesFailing && !hasDeadToken(channel)) {
    const href = `/conversations?${new URLSearchParams({ channelId: channel.id, state: 'needs_attention' })}`
    reasons.push({
      code: 'deliveries_failing',
      message: HEALTH_TEXTS.deliveriesFailing(DELIVERY_FAILURE_STREAK),
      action: { label: HEALTH_ACTIONS.seeConversations, href },
    })
  }
  if (channel.agentId && agent && channel.agentEnabled) {
    if (agent.status !== 'active') {
      reasons.push({
        code: 'agent_unavailable',
        message: HEALTH_TEXTS.agentUnavailable(agent.name, agent.status),
        action: { label: HEALTH_ACTIONS.chooseAgent, href: details },
      })
    } else if (!channel.webhookSubscribed) {
      reasons.push({ code: 'webhook_off', message: HEALTH_TEXTS.webhookOff, action: switchOn })
    }
  }
  return reasons
}

export function healthOf(row: HealthRow): ChannelHealth {
  const reasons = reasonsOf(row)
  const { channel } = row
  return {
    channelId: channel.id,
    name: channelDisplayName(channel),
    platform: channel.platformName,
    status: reasons.length > 0 ? 'attention' : channel.healthCheckedAt ? 'ok' : 'unknown',
    reasons,
    checkedAt: channel.healthCheckedAt?.toISOString() ?? null,
  }
}

function selectHealth(db: Database) {
  return db
    .select(healthColumns)
    .from(channels)
    .leftJoin(agents, eq(agents.id, channels.agentId))
    .orderBy(asc(channels.createdAt), asc(channels.id))
}

/**
 * Every channel of the organization with its health, in the Channels screen's order: one query (the channels, their
 * agents, and each channel's latest deliveries). The caller has checked that the person belongs to the
 * organization (the dashboard's loader, the API's scope).
 */
export async function getChannelsHealth(db: Database, orgId: string): Promise<ChannelHealth[]> {
  if (!isUuid(orgId)) return []
  const rows = await selectHealth(db).where(eq(channels.organizationId, orgId))
  return rows.map(healthOf)
}

/** The organization's channels' health, for a member. */
export function listChannelsHealth(scope: OrganizationScope): Promise<ChannelHealth[]> {
  return getChannelsHealth(scope.db, scope.organizationId)
}

/** One channel's health; a channel of another organization is not found. */
export async function getChannelHealth(scope: OrganizationScope, channelId: string): Promise<ChannelHealth> {
  if (!isUuid(channelId)) throw new AppError('NOT_FOUND', CHANNEL_TEXTS.notFound)
  const [row] = await selectHealth(scope.db)
    .where(and(eq(channels.organizationId, scope.organizationId), eq(channels.id, channelId)))
    .limit(1)
  if (!row) throw new AppError('NOT_FOUND', CHANNEL_TEXTS.notFound)
  return healthOf(row)
}
