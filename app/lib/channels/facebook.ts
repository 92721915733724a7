/** Facebook and WhatsApp connect constants from the specification (sections 6, 7 and 9), client-safe. */

/** The Facebook JS SDK's Graph version (spec section 9). */
export const FACEBOOK_SDK_VERSION = 'v23.0'

/** What the Facebook login asks for (spec section 6). */
export const FACEBOOK_PERMISSIONS = [
  'pages_show_list',
  'pages_messaging',
  'pages_read_engagement',
  'pages_manage_metadata',
  'pages_manage_posts',
  'pages_read_user_content',
  'email',
  'public_profile',
] as const

/**
 * The page webhook fields a channel subscribes to: the spec's (section 7, "Webhooks"), and `message_echoes`, the
 * page's own messages, so that a person's reply in the Page inbox pauses the AI (issue #16, docs/decisions/036).
 */
export const MESSENGER_WEBHOOK_FIELDS = [
  'messages',
  'messaging_postbacks',
  'message_deliveries',
  'message_reads',
  'message_echoes',
] as const

/** WhatsApp Embedded Signup's feature type (spec section 7, "Connect flows"). */
export const WHATSAPP_SIGNUP_FEATURE_TYPE = 'only_waba_sharing'

/**
 * Where Meta's Embedded Signup popup posts its WA_EMBEDDED_SIGNUP message from. Other origins are ignored: any
 * page may post a message to the window, and a forged one would pick the number connected.
 */
export const META_MESSAGE_ORIGINS = ['https://www.facebook.com', 'https://web.facebook.com'] as const

/** How long the SDK script may take to load before the connect gives up with a clear message. */
export const FACEBOOK_SDK_LOAD_TIMEOUT_MS = 15_000

/**
 * What the Channels page may know of the Meta app: public identifiers only, never the app secret or the verify
 * token. `whatsappConfigId` is null when Embedded Signup is not configured.
 */
export type MetaClientConfig = {
  configured: boolean
  appId: string
  sdkUrl: string
  whatsappConfigId: string | null
  /** Origins whose WA_EMBEDDED_SIGNUP messages are believed: Meta's, plus any the server adds (tests). */
  messageOrigins: string[]
}
