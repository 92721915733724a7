import { z } from 'zod'
import { localTime } from '~/lib/agents/behaviour'
import { timeZoneSchema } from '~/lib/analytics/analytics'
import { idSchema, isUuid } from '~/lib/shared/input'

// Telling a person when the AI needs one (issue 35, docs/decisions/068): what can happen, where it can arrive,
// what each member gets by default, and the words of the bell and of its settings.

/** What a member can be told of, in the order the settings list them. */
export const NOTIFICATION_EVENTS = [
  'needs_attention',
  'assigned',
  'customer_wrote',
  'channel_attention',
] as const
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number]

/**
 * Where it can arrive. `app`: the bell (and the browser's own alert while a tab is open); `push`: Web Push to the
 * member's browsers that allowed it, open or closed; `telegram`: the member's private chat with a bot of the
 * organization, once they linked it (docs/decisions/069).
 */
export const NOTIFICATION_MEDIA = ['app', 'email', 'push', 'telegram'] as const
export type NotificationMedium = (typeof NOTIFICATION_MEDIA)[number]

/** The media that send something out of the app, each through the outbox. */
export const NOTIFICATION_DELIVERY_MEDIA = [
  'email',
  'push',
  'telegram',
] as const satisfies readonly NotificationMedium[]
export type NotificationDeliveryMedium = (typeof NOTIFICATION_DELIVERY_MEDIA)[number]
/** `sending` is written before the send: a delivery left in it (the process died) is never sent again. */
export const NOTIFICATION_DELIVERY_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const

export type NotificationChoices = Record<NotificationEvent, Record<NotificationMedium, boolean>>

/**
 * Everything in the app; a conversation that needs a person and one assigned to you also by email and push, and
 * on Telegram once linked (linking is a choice already made).
 */
export const DEFAULT_NOTIFICATION_CHOICES: NotificationChoices = {
  needs_attention: { app: true, email: true, push: true, telegram: true },
  assigned: { app: true, email: true, push: true, telegram: true },
  customer_wrote: { app: true, email: false, push: false, telegram: false },
  channel_attention: { app: true, email: false, push: false, telegram: false },
}

/** At most one notification per conversation and member in this time: a later event is folded into it. */
export const NOTIFICATION_FOLD_MS = 10 * 60_000
/** How long the worker waits between looks at the outbox when nothing woke it: events arrive well within 60 s. */
export const NOTIFICATION_POLL_MS = 10_000
/** A failed delivery is tried again after 30 s, 1, 2, 4 minutes…, then given up. */
export const NOTIFICATION_RETRY = { firstMs: 30_000, maxAttempts: 6 }
/** When a refused delivery (after `attempts` tries) goes again: 30 s, then doubled each time. */
export const retryAt = (now: Date, attempts: number) =>
  new Date(now.getTime() + NOTIFICATION_RETRY.firstMs * 2 ** (attempts - 1))

/** Marking the member's notifications read: one (as the bell follows it) or all. */
export const notificationReadSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('read-all') }),
  z.object({ intent: z.literal('read'), id: idSchema }),
])

/** The bell's list. */
export const NOTIFICATION_LIST_LIMIT = 30

export const NOTIFICATION_TEXTS = {
  bell: 'Notifications',
  pageSubtitle: 'What needs you: conversations waiting for a person, and channels that stopped working',
  bellUnread: (count: number) => `Notifications, ${count} unread`,
  empty: 'Nothing new. You are told here when a conversation needs a person.',
  markAllRead: 'Mark all as read',
  settingsLink: 'Notification settings',
  events: {
    needs_attention: 'A conversation needs a person',
    assigned: 'A conversation is assigned to you',
    customer_wrote: 'A customer writes while you answer',
    channel_attention: 'A channel needs attention',
  } satisfies Record<NotificationEvent, string>,
  eventHints: {
    needs_attention: 'The AI handed over, failed, is outside office hours or did not know the answer.',
    assigned: 'Someone else, or the channel’s default, gives you a conversation.',
    customer_wrote: 'A conversation assigned to you, with the AI paused, gets a new message.',
    channel_attention: 'A channel stops working (owners only).',
  } satisfies Record<NotificationEvent, string>,
  media: { app: 'In the app', email: 'By email', push: 'Push', telegram: 'Telegram' } satisfies Record<
    NotificationMedium,
    string
  >,
  pushHeading: 'Push to this browser',
  pushHint:
    'Alerts reach this browser even when ReplyPilot is closed, on a computer or a phone. Do this once on each device you use.',
  pushOn: 'Turn on push for this browser',
  pushOff: 'Turn off push for this browser',
  pushIsOn: 'This browser gets push alerts.',
  pushUnsupported:
    'This browser cannot get push alerts (on an iPhone, add ReplyPilot to the Home Screen first).',
  pushBlocked: 'This browser blocks alerts from ReplyPilot: allow them in the browser’s site settings.',
  pushFailed: 'Push could not be turned on in this browser. Please try again.',
  pushNone: 'No browser gets push alerts yet: turn it on below, on each device you use.',
  emailOff:
    'Email is not set up on this server, so nothing is sent by email yet (see “Email notifications” in the setup guide).',
  emailNoAddress: 'Your account has no email address, so nothing can be sent to you by email.',
  saved: 'Notification settings saved',
  settingsSummary:
    'Choose when you are told that a conversation needs you: in the app, by email, and when to keep quiet.',
  settingsSubtitle: 'What you are told, where, and when',
  choicesHeading: 'What you are told',
  eventColumn: 'When',
  quietHeading: 'Quiet hours',
  quietHint:
    'Nothing is emailed or pushed during these hours; what came meanwhile arrives in one email (and one push) when they end. The bell still counts it.',
  quietSwitch: 'Keep quiet hours',
  quietFrom: 'From',
  quietTo: 'Until',
  browserHeading: 'Alerts in this browser',
  browserHint: 'While ReplyPilot is open in a tab, new notifications can also pop up on your screen.',
  unknownEvent: 'Unknown notification event',
  title: {
    needs_attention: (customer: string) => `${customer} needs a person`,
    assigned: (customer: string) => `${customer} was assigned to you`,
    customer_wrote: (customer: string) => `${customer} wrote again`,
    channel_attention: (channel: string) => `${channel} needs attention`,
  } satisfies Record<NotificationEvent, (name: string) => string>,
  permissionsMissing: 'The channel’s token lacks permissions it needs to answer.',
  folded: (count: number) => `${count} updates`,
  browserAlerts: 'Show alerts on this computer',
  browserAlertsOn: 'Alerts are shown on this computer while ReplyPilot is open in a tab.',
  browserAlertsBlocked:
    'This browser blocks alerts from ReplyPilot: allow them in the browser’s site settings.',
} as const

const mediumChoices = z.strictObject(
  Object.fromEntries(NOTIFICATION_MEDIA.map((m) => [m, z.boolean().optional()])) as Record<
    NotificationMedium,
    z.ZodOptional<z.ZodBoolean>
  >,
)

/** What a member changes: any events and media (the rest keep their choice). An unknown event is refused. */
export const notificationChoicesSchema = z.strictObject(
  Object.fromEntries(NOTIFICATION_EVENTS.map((e) => [e, mediumChoices.optional()])) as Record<
    NotificationEvent,
    z.ZodOptional<typeof mediumChoices>
  >,
  { error: (issue) => (issue.code === 'unrecognized_keys' ? NOTIFICATION_TEXTS.unknownEvent : undefined) },
)
export type NotificationChoicesInput = z.infer<typeof notificationChoicesSchema>

/** The stored choices over the defaults: an event or medium never chosen keeps its default. */
export function choicesWithDefaults(stored: unknown): NotificationChoices {
  const parsed = notificationChoicesSchema.safeParse(stored)
  const chosen = parsed.success ? parsed.data : {}
  return Object.fromEntries(
    NOTIFICATION_EVENTS.map((event) => [
      event,
      Object.fromEntries(
        NOTIFICATION_MEDIA.map((medium) => [
          medium,
          chosen[event]?.[medium] ?? DEFAULT_NOTIFICATION_CHOICES[event][medium],
        ]),
      ),
    ]),
  ) as NotificationChoices
}

/** One item of the bell's list, as the page and the API show it. */
export const notificationItemSchema = z.object({
  id: z.string(),
  event: z.enum(NOTIFICATION_EVENTS),
  title: z.string(),
  body: z.string(),
  conversationId: z.string().nullable(),
  channelId: z.string().nullable(),
  /** How many events were folded into it (1: none). */
  events: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  read: z.boolean(),
})
export type NotificationItem = z.infer<typeof notificationItemSchema>

/** Where a notification leads: its conversation, or its channel's details. */
export function notificationHref(item: Pick<NotificationItem, 'conversationId' | 'channelId'>): string {
  if (item.conversationId) return `/conversations/${item.conversationId}`
  if (item.channelId) return `/channels/${item.channelId}`
  return '/conversations'
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/
const timeOfDay = (label: string) =>
  z.string({ error: `${label} must be a time (HH:MM)` }).regex(TIME, `${label} must be a time (HH:MM)`)

/** Quiet hours as a member sets them: from `start` to `end` local time (over midnight when end comes first). */
export const quietHoursSchema = z
  .object({ start: timeOfDay('Quiet hours’ start'), end: timeOfDay('Quiet hours’ end') })
  .refine((hours) => hours.start !== hours.end, {
    error: 'Quiet hours must end at another time than they start',
    path: ['end'],
  })
export type QuietHours = z.infer<typeof quietHoursSchema>

/** What a member changes (the API's PUT and the settings' form): anything left out keeps its value. */
export const notificationPreferencesSchema = z.strictObject({
  choices: notificationChoicesSchema.optional(),
  /** null: no quiet hours. */
  quietHours: quietHoursSchema.nullable().optional(),
  timeZone: timeZoneSchema.optional(),
})
export type NotificationPreferencesInput = z.infer<typeof notificationPreferencesSchema>

export type NotificationPreferences = {
  choices: NotificationChoices
  quietHours: QuietHours | null
  timeZone: string
}

export const minutesOfDay = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))
export const timeOfDayOf = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`

/**
 * When the member's quiet hours end, if `now` falls inside them; null otherwise. What would have gone out
 * meanwhile goes then, in one digest.
 */
export function quietUntil(
  now: Date,
  hours: { start: number; end: number; timeZone: string } | null,
): Date | null {
  if (!hours) return null
  const { minutes } = localTime(now, hours.timeZone)
  const inside =
    hours.start < hours.end
      ? minutes >= hours.start && minutes < hours.end
      : minutes >= hours.start || minutes < hours.end
  if (!inside) return null
  const left = (hours.end - minutes + 24 * 60) % (24 * 60)
  const startOfMinute = now.getTime() - (now.getTime() % 60_000)
  return new Date(startOfMinute + left * 60_000)
}

/** A browser's push subscription as PushSubscription.toJSON() gives it (RFC 8030 endpoint, RFC 8291 keys). */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .url({ protocol: /^https$/, error: 'A push endpoint must be an https address' })
    .max(2048, 'A push endpoint must be an https address'),
  keys: z.object({
    // An uncompressed P-256 point (65 bytes) and a 16-byte secret, base64url.
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{86,88}={0,2}$/, 'Invalid push key'),
    auth: z.string().regex(/^[A-Za-z0-9_-]{21,24}={0,2}$/, 'Invalid push key'),
  }),
})
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>

/** How long a Telegram link code works (docs/decisions/069). */
export const TELEGRAM_LINK_MINUTES = 30

/**
 * The code in `/start <code>`, the message Telegram sends when someone opens `t.me/<bot>?start=<code>`; a
 * customer's own deep links (`?start=spring-sale`) are shorter than ours and stay customer messages.
 */
export const TELEGRAM_LINK_CODE = /^\/start (rp[A-Za-z0-9_-]{24})$/

export const TELEGRAM_ALERT_TEXTS = {
  heading: 'Telegram',
  hint: 'Get alerts on your phone from your organization’s own Telegram bot. Link it once; what you tick under “Telegram” above arrives there.',
  noBot: 'Connect a Telegram bot under Channels first: alerts come from your own bot.',
  bot: 'Bot',
  link: 'Link Telegram',
  newLink: 'Get a new link',
  open: (bot: string) => `Open ${bot} in Telegram`,
  codeHint: `Open the link on a device where you use Telegram and press Start. It works once, for ${TELEGRAM_LINK_MINUTES} minutes.`,
  manual: (bot: string) => `Or send ${bot} this message:`,
  waiting: 'Waiting for you to press Start in Telegram…',
  expired: 'That link has expired. Get a new one.',
  linked: (name: string, bot: string) => `Alerts go to ${name} on Telegram, from ${bot}.`,
  unlink: 'Unlink Telegram',
  unlinked: 'Telegram unlinked: nothing more is sent there.',
  notLinked: 'Link Telegram below to get alerts there.',
  welcome: (organization: string) =>
    `Done: you will get ReplyPilot alerts for ${organization} in this chat. To stop them, unlink Telegram in your notification settings.`,
  botNotFound: 'Choose one of your organization’s Telegram bots',
} as const

/** The settings' Telegram buttons. */
export const telegramAlertFormSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('telegram-link'),
    channelId: z
      .string({ error: TELEGRAM_ALERT_TEXTS.botNotFound })
      .refine(isUuid, TELEGRAM_ALERT_TEXTS.botNotFound),
  }),
  z.object({ intent: z.literal('telegram-unlink') }),
])
