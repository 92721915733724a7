/** The platforms a channel can be on, in the spec's order (section 3, "Channel"). */
export const PLATFORM_NAMES = ['facebook', 'telegram', 'instagram', 'whatsapp', 'tiktok'] as const
export type PlatformName = (typeof PLATFORM_NAMES)[number]

/** What kind of account a channel is; the table's column and the API's enum both take this list. */
export const CHANNEL_TYPES = [
  'facebook_page',
  'telegram_bot',
  'whatsapp_number',
  'instagram_account',
  'tiktok_account',
] as const
export type ChannelType = (typeof CHANNEL_TYPES)[number]

export const CHANNEL_STATUSES = ['active', 'error', 'pending', 'disconnected'] as const
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number]

export const PLATFORM_LABELS: Record<PlatformName, string> = {
  facebook: 'Facebook',
  telegram: 'Telegram',
  instagram: 'Instagram',
  whatsapp: 'WhatsApp',
  tiktok: 'TikTok',
}

/** What a channel keeps of its platform account (spec section 3). */
export type ChannelMetadata = {
  name?: string
  username?: string
  firstName?: string
  phoneNumber?: string
  category?: string
  tasks?: string
  pageId?: string
  botId?: string
  canJoinGroups?: boolean
  canReadAllGroupMessages?: boolean
  supportsInlineQueries?: boolean
  wabaId?: string
  wabaName?: string
  verifiedName?: string
}

/**
 * How Telegram channels receive their messages: a webhook under PUBLIC_URL, or long polling (`getUpdates`) by the
 * workers when PUBLIC_URL is not a public https address (a laptop). The "Webhook Subscription" switch turns
 * either on or off.
 */
export type TelegramUpdates = 'webhook' | 'polling'

/** What the browser may know of a channel: everything but its token (spec section 3, "Channel"). */
export type ChannelView = {
  id: string
  organizationId: string
  platformName: PlatformName
  platformChannelId: string
  channelType: ChannelType
  status: ChannelStatus
  statusReason: string | null
  agentId: string | null
  agentEnabled: boolean
  webhookSubscribed: boolean
  webhookUrl: string | null
  /** The inbox's hand-back: the AI answers again this many minutes after a person's reply (0: when resumed). */
  autoResumeMinutes: number
  metadata: ChannelMetadata
  createdAt: string | Date
}

/** The spec's display-name rules: the metadata name, else a fallback by type. */
export function channelDisplayName(channel: Pick<ChannelView, 'channelType' | 'metadata'>): string {
  const { metadata } = channel
  if (metadata.name) return metadata.name
  switch (channel.channelType) {
    case 'facebook_page':
      return 'Facebook Page'
    case 'telegram_bot':
      return metadata.username ? `@${metadata.username}` : 'Telegram Bot'
    case 'instagram_account':
      return 'Instagram Account'
    case 'whatsapp_number':
      return metadata.phoneNumber ?? 'WhatsApp'
    case 'tiktok_account':
      return 'TikTok Account'
  }
}

/** A platform connection's status (spec section 3, "Platform connection"). */
export const CONNECTION_STATUSES = ['connected', 'error', 'pending', 'disconnected'] as const
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number]

/** Connection status as the platforms endpoints report it (spec section 4). */
export function connectionStatus(channel: Pick<ChannelView, 'status' | 'platformName'>): ConnectionStatus {
  if (channel.platformName === 'telegram') return 'connected'
  switch (channel.status) {
    case 'active':
      return 'connected'
    case 'error':
      return 'error'
    case 'pending':
      return 'pending'
    default:
      return 'disconnected'
  }
}

export const CHANNEL_TEXTS = {
  botTokenRequired: 'Bot token is required for Telegram connection',
  botInfoFailed: 'Failed to retrieve bot information. Please check your token.',
  botTokenInvalid: 'Bot token is invalid or expired',
  telegramCreateFailed: 'Failed to create Telegram channel in backend',
  alreadyConnected: 'This channel is already connected',
  notFound: 'Channel not found',
  noChannelSelected: 'No channel selected',
  selectAgent: 'Please select an agent',
  assigned: 'Agent assigned successfully',
  removed: 'Agent removed successfully',
  deleted: 'Channel deleted successfully',
  assignFailed: 'Failed to assign agent',
  removeFailed: 'Failed to remove agent',
  deleteFailed: 'Failed to delete channel',
  webhookFailed: 'Failed to update webhook subscription',
  noFacebookPages:
    'No Facebook pages found. You need to be an admin of at least one Facebook page to use this feature.',
  noFacebookPagesAvailable: 'No Facebook pages available to connect',
  facebookLoginFailed: 'Facebook login was cancelled or failed',
  facebookCreateFailed: 'Failed to create channels in backend',
  facebookInvalid: 'Facebook connection is no longer valid',
  noAccessToken: 'No access token found',
  whatsappSignupFailed: 'WhatsApp signup failed',
  whatsappCancelled: 'User cancelled WhatsApp signup or did not authorize',
  whatsappNoCode: 'No authorization code received from WhatsApp signup',
  whatsappConnectFailed: 'Failed to connect WhatsApp number',
  whatsappNotFound: 'WhatsApp connection not found',
  /** Not a spec text: Facebook's words for a WhatsApp token Graph refuses. */
  whatsappInvalid: 'WhatsApp connection is no longer valid',
  connectionNotFound: 'Connection not found',
  noStrategy: 'No connection strategy found for platform',
  metaNotConfigured:
    'Facebook and WhatsApp are not configured on this server: set META_APP_ID and META_APP_SECRET (the Meta app) and restart.',
} as const

/**
 * Platforms whose channels receive their messages once subscribed ("Webhook Subscription"): the switch, and going
 * live on assignment. Instagram and TikTok are not offered.
 */
export const SUBSCRIBABLE_PLATFORMS: ReadonlySet<string> = new Set(['telegram', 'facebook', 'whatsapp'])

/** Assigning an agent starts the channel's messages coming (issue 34, docs/decisions/065). */
export const GO_LIVE_TEXTS = {
  receiving: 'The channel is now receiving messages: the agent answers the next one.',
  notReceiving:
    'The channel could not start receiving messages just now. Turn on “Webhook Subscription” above to try again.',
} as const

/** What a channel does now, in a business owner's words (its card; issue 34). */
export type ChannelActivity = {
  tone: 'answering' | 'idle' | 'paused' | 'attention'
  text: string
}

export function channelActivity(
  channel: Pick<ChannelView, 'status' | 'agentId' | 'agentEnabled' | 'webhookSubscribed'>,
  agentName: string | undefined,
): ChannelActivity {
  if (channel.status === 'error') return { tone: 'attention', text: 'Needs attention: reconnect' }
  if (!channel.agentId) return { tone: 'idle', text: 'Not answering yet — choose an agent' }
  if (!channel.agentEnabled) return { tone: 'paused', text: 'Paused' }
  if (!channel.webhookSubscribed) return { tone: 'idle', text: 'Not receiving messages yet' }
  return { tone: 'answering', text: agentName ? `Answering with ${agentName}` : 'Answering' }
}
