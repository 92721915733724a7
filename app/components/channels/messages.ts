import { CHANNEL_MESSAGES } from '~/lib/channels'

/**
 * The Channels screen's texts. The spec's own (sections 2 and 8) come from CHANNEL_MESSAGES word for word; the
 * few it leaves open (the connect toast, the help steps) are ours.
 */
export const CHANNEL_UI_MESSAGES = {
  ...CHANNEL_MESSAGES,
  noOrganization: 'No organization selected',
  subtitle: 'Manage all your connected social channels in one place',
  emptyTitle: 'No channels connected yet',
  emptyHint: 'Connect a channel to get started',
  connectionErrorTitle: 'Connection Error',
  connected: (name: string) => `Telegram bot ${name} connected successfully`,
  comingSoon: 'Coming soon',
  webhookLabel: 'Webhook Subscription',
  webhookDescription: 'Enable real-time message notifications',
  noActiveAgents: 'No active agents available',
  loadingAgents: 'Loading agents...',
  chooseAgent: 'Choose an agent',
  /** Around the channel's name, which is shown bold. */
  deleteConfirm: {
    before: 'Are you sure you want to delete ',
    after: '? This action cannot be undone. All messages and webhook subscriptions will be removed.',
  },
  deleteWarning: (reason: string) => `The webhook could not be removed at the platform: ${reason}`,
} as const

/** After a delete succeeds, the dialog stays this long to say so (spec section 9). */
export const DELETE_CLOSE_DELAY_MS = 1000
