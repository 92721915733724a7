/**
 * Channel health (issue #19, docs/decisions/046): what the platform said at the last check, and what the channel's
 * own state says, as reasons a person can act on. Client-safe: the screens, the API contract and the services
 * share these names and texts.
 */

import type { PlatformName } from './channels'

/** What a check at the platform can find wrong; null on the channel: the token works and nothing is missing. */
export const CHANNEL_HEALTH_PROBLEMS = [
  'token_invalid',
  'permissions_missing',
  'subscription_missing',
] as const
export type ChannelHealthProblem = (typeof CHANNEL_HEALTH_PROBLEMS)[number]

/** ok: checked and nothing wrong; attention: a reason below; unknown: never checked and nothing wrong known. */
export const CHANNEL_HEALTH_STATUSES = ['ok', 'attention', 'unknown'] as const
export type ChannelHealthStatus = (typeof CHANNEL_HEALTH_STATUSES)[number]

/** Every reason a channel needs attention: the check's problems, and those derived from the channel's state. */
export const CHANNEL_HEALTH_REASONS = [
  ...CHANNEL_HEALTH_PROBLEMS,
  'deliveries_failing',
  'webhook_off',
  'agent_unavailable',
] as const
export type ChannelHealthReasonCode = (typeof CHANNEL_HEALTH_REASONS)[number]

/** The scheduled check's default interval (CHANNEL_HEALTH_INTERVAL_HOURS). */
export const DEFAULT_CHANNEL_HEALTH_INTERVAL_HOURS = 6

/** This many deliveries in a row failed (the channel's latest answers): the channel needs attention. */
export const DELIVERY_FAILURE_STREAK = 3

/** The Graph permissions a channel's token must carry to answer (debug_token's `scopes`). */
export const REQUIRED_SCOPES = {
  facebook: ['pages_messaging', 'pages_manage_metadata'],
  whatsapp: ['whatsapp_business_messaging', 'whatsapp_business_management'],
} as const

/**
 * A channel whose replies cannot go out: the platform refused its token (at a health check, a send or a poll,
 * which put the channel in error). The reply pipeline attempts nothing on it (docs/decisions/046).
 */
export function hasDeadToken(channel: {
  status: string
  healthProblem: ChannelHealthProblem | null
}): boolean {
  return channel.status === 'error' || channel.healthProblem === 'token_invalid'
}

export const HEALTH_ACTIONS = {
  reconnect: 'Reconnect',
  switchOn: 'Switch on',
  chooseAgent: 'Choose another agent',
  seeConversations: 'See the conversations',
} as const

export const HEALTH_TEXTS = {
  tokenInvalid: 'The platform no longer accepts this channel’s token (it was revoked or has expired).',
  permissionsMissing: (missing: string[]) =>
    `The channel’s token lacks permissions it needs to answer: ${missing.join(', ')}.`,
  subscriptionMissing:
    'The platform no longer sends this channel’s messages to ReplyPilot (its webhook subscription is gone).',
  deliveriesFailing: (count: number) => `The last ${count} answers on this channel could not be delivered.`,
  webhookOff:
    'An agent is assigned and switched on, but the webhook subscription is off: no message reaches it.',
  agentUnavailable: (name: string, status: string) =>
    `The assigned agent “${name}” is ${status}: it answers nobody.`,
  banner: (count: number) =>
    count === 1 ? 'A channel needs your attention' : `${count} channels need your attention`,
  needsAttention: 'Needs attention',
  healthy: 'Working',
  unknown: 'Not checked yet',
  lastChecked: 'Last checked',
  never: 'never',
  checkNow: 'Check now',
  checking: 'Checking...',
  checked: 'Channel checked',
  checkFailed: 'The platform could not be asked now; try again later',
} as const

export type ChannelHealthAction = { label: string; href: string }
export type ChannelHealthReason = {
  code: ChannelHealthReasonCode
  message: string
  action: ChannelHealthAction
}

/** One channel's health, as getChannelsHealth gives it (and the API answers it). */
export type ChannelHealth = {
  channelId: string
  name: string
  platform: PlatformName
  status: ChannelHealthStatus
  reasons: ChannelHealthReason[]
  /** ISO time of the last conclusive check at the platform; null: never checked. */
  checkedAt: string | null
}
