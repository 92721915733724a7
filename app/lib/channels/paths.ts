/**
 * The Channels screen and its dialogs, one URL each (docs/decisions/033-dialogs-as-nested-routes.md). In lib so
 * that services can name them too (the channel health's actions link to them, docs/decisions/046).
 */
export const CHANNELS_PATH = '/channels'

/** The connect routes: Telegram is a dialog; Facebook and WhatsApp only take the SDK's results (JavaScript). */
export const CONNECT_PATHS = {
  telegram: `${CHANNELS_PATH}/connect/telegram`,
  facebook: `${CHANNELS_PATH}/connect/facebook`,
  whatsapp: `${CHANNELS_PATH}/connect/whatsapp`,
} as const

/** The Channel Details dialog's changes, each its own action under the dialog's URL. */
export type ChannelChange = 'webhook' | 'assign' | 'unassign' | 'agent-enabled' | 'hand-back' | 'check'

/** The channel's details, the Delete Channel dialog, or one of the details' changes. */
export const channelPath = (channelId: string, sub?: 'delete' | ChannelChange) =>
  `${CHANNELS_PATH}/${encodeURIComponent(channelId)}${sub ? `/${sub}` : ''}`
