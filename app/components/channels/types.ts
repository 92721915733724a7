import type { MemberOption } from '~/lib/organizations/schemas'
import type { AgentStatus } from '~/lib/agents/schemas'
import type { ChannelHealth } from '~/lib/channels/health'
import type { ChannelView } from '~/lib/channels/channels'

/**
 * What the Channels screen knows of a channel: the server's ChannelView, never a token; and whether its messages
 * come by long polling (a Telegram bot with no public URL for a webhook).
 */
export type ChannelItem = ChannelView & {
  polled?: boolean
  /** Its health (docs/decisions/046): the card's "Needs attention", Channel Details' reasons and Check now. */
  health?: ChannelHealth
  /** The members who may be its default assignee (Channel Details), and the one who is: their uid; null: nobody. */
  members?: MemberOption[]
  defaultAssigneeUid?: string | null
  /** Its agent's name, for the card's "Answering with …". */
  agentName?: string
}

/** An agent as the Select Agent dropdown and the "Currently Assigned" panel show it. */
export type AgentOption = { id: string; name: string; description: string | null; status: AgentStatus }
