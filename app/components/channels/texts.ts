import { CHANNEL_TEXTS } from '~/lib/channels/channels'

const META_NOT_SET_UP =
  'Not set up on this server yet (see “Facebook Pages and WhatsApp” in the setup guide).'

/**
 * The Channels screen's texts. The spec's own (sections 2 and 8) come from CHANNEL_TEXTS word for word; the
 * few it leaves open (the connect toast, the help steps) are ours.
 */
export const CHANNEL_UI_TEXTS = {
  ...CHANNEL_TEXTS,
  subtitle: 'Manage all your connected social channels in one place',
  emptyTitle: 'No channels connected yet',
  emptyHint: 'Connect a channel to get started',
  connectionErrorTitle: 'Connection Error',
  connected: (name: string) => `Telegram bot ${name} connected successfully`,
  facebookConnected: (names: string[]) =>
    names.length === 1
      ? `Facebook page ${names[0]} connected successfully`
      : `${names.length} Facebook pages connected successfully: ${names.join(', ')}`,
  whatsappConnected: (name: string) => `WhatsApp number ${name} connected successfully`,
  // Ours, where the spec has no text.
  missingPermissions: (missing: string[]) =>
    `Facebook did not grant these permissions: ${missing.join(', ')}. Connect again and allow all of them.`,
  whatsappNoPhoneNumber:
    'WhatsApp signup finished without a phone number. Add a phone number to your WhatsApp Business Account, then connect again.',
  // What to set is in docs/operations.md: an owner reads only that the server's administrator must set it up.
  facebookNotConfigured: META_NOT_SET_UP,
  whatsappNotConfigured: META_NOT_SET_UP,
  connecting: 'Connecting...',
  needsJavaScript: 'Needs JavaScript',
  webhookLabel: 'Webhook Subscription',
  webhookDescription: 'Enable real-time message notifications',
  receivingOn:
    'On: customers’ messages arrive as they send them. Turning it off stops every answer on this channel.',
  receivingOff:
    'Off: this channel receives no messages, so nobody here is answered. Assigning an agent turns it on.',
  pollingNote:
    "This server cannot be reached from the internet, so it collects the bot's messages itself; they still arrive within seconds.",
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
