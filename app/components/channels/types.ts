import type { SubmissionResult } from '@conform-to/react'
import type { AgentStatus } from '~/lib/agent-schemas'
import type { ChannelView } from '~/lib/channels'

/**
 * What the Channels screen knows of a channel: the server's ChannelView, never a token; and whether its messages
 * come by long polling (a Telegram bot with no public URL for a webhook).
 */
export type ChannelItem = ChannelView & { polled?: boolean }

/** An agent as the Select Agent dropdown and the "Currently Assigned" panel show it. */
export type AgentOption = { id: string; name: string; description: string | null; status: AgentStatus }

/** The route action's answers, one per intent. `error` is what the red alert or the banner says. */
export type ConnectTelegramResponse = {
  intent: 'connect-telegram'
  result: SubmissionResult<string[]>
  connected: { id: string; name: string } | null
  error: string | null
}

export type ChannelUpdateIntent = 'webhook' | 'assign' | 'remove-agent' | 'toggle-agent'

export type ChannelUpdateResponse = {
  intent: ChannelUpdateIntent
  channelId: string
  ok: boolean
  /** The green alert's text, when the spec has one for this change. */
  message: string | null
  error: string | null
}

export type ChannelDeleteResponse = {
  intent: 'delete'
  channelId: string
  deleted: boolean
  /** The channel is gone, but its platform could not be told (its webhook may linger there). */
  warning: string | null
  error: string | null
}

/** Facebook pages connected from the SDK's login (one channel each), or why not. */
export type ConnectFacebookResponse = {
  intent: 'connect-facebook'
  connected: Array<{ id: string; name: string }> | null
  error: string | null
}

/** The number Embedded Signup shared, connected, or why not. */
export type ConnectWhatsAppResponse = {
  intent: 'connect-whatsapp'
  connected: { id: string; name: string } | null
  error: string | null
}

export type ChannelActionResponse =
  | ConnectTelegramResponse
  | ConnectFacebookResponse
  | ConnectWhatsAppResponse
  | ChannelUpdateResponse
  | ChannelDeleteResponse
