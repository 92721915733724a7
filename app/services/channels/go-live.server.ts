import type { Channel } from '~/db/schema'
import { GO_LIVE_TEXTS, SUBSCRIBABLE_PLATFORMS } from '~/lib/channels/channels'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'
import type { Logger } from '~/utils/logger.server'
import { assignAgent } from './channels.server'
import type { PlatformDeps } from './platform-deps.server'
import { setChannelWebhook } from './webhook.server'

export type GoLive = {
  channel: Channel
  /** Said under the assignment's own message: the channel now receives its messages, or why it does not. */
  note: string | null
  warning: string | null
}

/**
 * Assigning an enabled agent in Channel Details is going live (issue 34, docs/decisions/065): a channel that does
 * not receive its messages yet starts receiving them (the webhook, or long polling without a public address). The
 * assignment stands even when that fails: the answer says so, and the switch is there to try again.
 */
export async function assignAndGoLive(
  scope: OrganizationScope,
  channelId: string,
  assignment: { agentId: string; agentEnabled?: boolean },
  deps: PlatformDeps & { logger: Logger },
): Promise<GoLive> {
  const assigned = await assignAgent(scope, channelId, assignment)
  if (
    !assigned.agentEnabled ||
    assigned.webhookSubscribed ||
    !SUBSCRIBABLE_PLATFORMS.has(assigned.platformName)
  ) {
    return { channel: assigned, note: null, warning: null }
  }
  try {
    const channel = await setChannelWebhook(scope, channelId, true, deps)
    return { channel, note: GO_LIVE_TEXTS.receiving, warning: null }
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    // The platform's own words stay in the log; the owner is told what to do.
    deps.logger.warn('going live failed', { channelId, code: error.code, reason: error.message })
    return { channel: assigned, note: null, warning: GO_LIVE_TEXTS.notReceiving }
  }
}

/** What the dialog's answer says of it, beside the assignment's own message. */
export const goLiveTold = ({ note, warning }: GoLive) => ({ note, warning })
