import { z } from 'zod'
import { CHANNEL_STATUSES, PLATFORM_NAMES } from '~/lib/channels/channels'
import { hasNoNul, idSchema, NUL_MESSAGE } from '~/lib/shared/input'

/** The inbox's rules and texts, client-safe: the Conversations screens, the API contract and the services share them. */

export const CONVERSATION_STATES = ['ai', 'paused', 'needs_attention'] as const
export type ConversationState = (typeof CONVERSATION_STATES)[number]

/**
 * Where the team is with a conversation: open; resolved until the customer writes again; snoozed until a time
 * (or the customer's next message).
 */
export const CONVERSATION_STATUSES = ['open', 'resolved', 'snoozed'] as const
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number]
export const CONVERSATION_STATUS_LABELS: Record<ConversationStatus, string> = {
  open: 'Open',
  resolved: 'Resolved',
  snoozed: 'Snoozed',
}

export const MESSAGE_DIRECTIONS = ['inbound', 'outbound'] as const
/**
 * Inbound: `queued` (stored, a reply job waits), `replied`, `received` (stored, no agent to answer: left to a
 * person), `ignored` (never answered: not text), `failed` (the reply failed after its retries; see the reason).
 * Outbound: `pending` (stored, being sent), `sent`, `delivered`, `read` (platform receipts), `failed`.
 */
export const INBOUND_MESSAGE_STATUSES = ['received', 'queued', 'replied', 'ignored', 'failed'] as const
export const OUTBOUND_MESSAGE_STATUSES = ['pending', 'sent', 'delivered', 'read', 'failed'] as const
/**
 * What an inbound message was: text, or something the agent cannot read yet. A message that is not text is
 * stored with its label (and caption, if any) as its text, so the inbox and the prompt show "[voice note]".
 */
export const MESSAGE_KINDS = [
  'text',
  'photo',
  'voice',
  'audio',
  'video',
  'sticker',
  'file',
  'location',
  'contact',
  'other',
] as const
export type MessageKind = (typeof MESSAGE_KINDS)[number]
export const MESSAGE_KIND_LABELS: Record<MessageKind, string> = {
  text: 'text',
  photo: '[photo]',
  voice: '[voice note]',
  audio: '[audio]',
  video: '[video]',
  sticker: '[sticker]',
  file: '[file]',
  location: '[location]',
  contact: '[contact]',
  other: '[message]',
}
/** The stored text of a message that is not text: its label, then its caption. */
export const unreadableText = (kind: Exclude<MessageKind, 'text'>, caption?: string | null) =>
  caption?.trim() ? `${MESSAGE_KIND_LABELS[kind]} ${caption.trim()}` : MESSAGE_KIND_LABELS[kind]

/** Both directions' statuses (`failed` is in both): the column's type. */
export const MESSAGE_STATUSES = [...INBOUND_MESSAGE_STATUSES, ...OUTBOUND_MESSAGE_STATUSES] as const

export const CONVERSATION_STATE_LABELS: Record<ConversationState, string> = {
  ai: 'AI answering',
  paused: 'Paused — a person is answering',
  needs_attention: 'Needs attention',
}

/** A person's reply: at most this many characters (longer ones go out in parts, split at the platform's limit). */
export const PERSON_REPLY_MAX_LENGTH = 10_000
/** How many conversations a page of the list holds, and messages a page of a conversation. */
export const CONVERSATION_PAGE_SIZE = 50
export const MESSAGE_PAGE_SIZE = 50
/** "Load older messages" shows this many at most (a longer history is read through the API's `before`). */
export const MAX_SHOWN_MESSAGES = 1000
/** A search's longest text. */
export const SEARCH_MAX_LENGTH = 200
/** "Pause AI" without a time: until resumed, or the channel's hand-back after a person's reply. */
export const MAX_PAUSE_MINUTES = 7 * 24 * 60

/**
 * Live updates of the inbox (docs/decisions/037): the event stream's path; how long a process gathers the
 * database's notifications before it tells the browsers (a burst of updates to one conversation is one event);
 * the stream's heartbeat, under the idle timeouts of proxies (often 60 s); how long a browser waits before it
 * reconnects; and how often a page reloads its data at most.
 */
export const INBOX_LIVE = {
  path: '/conversations/events',
  /** How many conversations need a person (the sidebar's count), read again after a change. */
  attentionPath: '/conversations/attention',
  coalesceMs: 150,
  heartbeatMs: 20_000,
  retryMs: 3_000,
  revalidateEveryMs: 500,
} as const

/** The platforms' windows for a business's free-form messages, counted from the customer's last message. */
export const MESSENGER_STANDARD_WINDOW_MS = 24 * 60 * 60 * 1000
/** Messenger's HUMAN_AGENT tag: a person may answer for 7 days after the customer's last message. */
export const MESSENGER_HUMAN_AGENT_WINDOW_MS = 7 * 24 * 60 * 60 * 1000
export const WHATSAPP_SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000

const AUTO_RESUME_MESSAGE = 'Minutes must be a whole number from 0 to 1440'

/** Who wrote a reply on the platform itself (its echo names no person), as the inbox shows it. */
export const PLATFORM_REPLY_SENDERS = { facebook: 'Page inbox', whatsapp: 'WhatsApp Business app' } as const

/** A conversation's labels: how many, and how long each. */
export const MAX_LABELS = 10
export const LABEL_MAX_LENGTH = 30

export const CONVERSATION_TEXTS = {
  notFound: 'Conversation not found',
  messageNotFound: 'Message not found',
  textRequired: 'Write a message first',
  textTooLong: `A message can be at most ${PERSON_REPLY_MAX_LENGTH.toLocaleString('en-US')} characters`,
  minutesInvalid: `Minutes must be a whole number from 0 to ${MAX_PAUSE_MINUTES}`,
  messengerWindowClosed:
    "More than 7 days have passed since this customer's last message: Messenger lets the page write again only after they write",
  whatsappWindowClosed:
    "More than 24 hours have passed since this customer's last message: WhatsApp lets only approved templates reach them now",
  channelNotActive: (status: string) =>
    `This channel is ${status}: reconnect it on the Channels screen before replying`,
  channelNoToken: 'This channel has no access token: reconnect it on the Channels screen before replying',
  channelTokenDead:
    "This channel's token no longer works: reconnect it on the Channels screen before replying",
  unsupportedPlatform: (platform: string) => `Replies on ${platform} are not supported`,
  notRetryable: 'Only a failed reply can be sent again',
  idempotencyKeyInvalid: 'Idempotency-Key must be 1 to 200 visible characters',
  empty: 'No conversations yet',
  emptyHint:
    'Connect a channel and assign an agent to it: every conversation with your customers shows up here.',
  noMatches: 'No conversations match these filters',
  statusInvalid: 'Choose open, resolved or snoozed',
  snoozeInvalid: 'Snooze for a whole number of minutes, from 1 to 43200 (30 days)',
  snoozed: 'Conversation snoozed',
  assigneeNotMember: 'Choose a member of this organization',
  labelInvalid: `A label is 1 to ${LABEL_MAX_LENGTH} letters, digits, spaces, dashes or underscores`,
  labelsTooMany: `A conversation can have at most ${MAX_LABELS} labels`,
  labelsSaved: 'Labels saved',
  assigned: (name: string) => `Assigned to ${name}`,
  unassigned: 'Conversation unassigned',
  sent: 'Message sent',
  alreadySent: 'This Idempotency-Key was used before: its message, nothing sent again',
  paused: 'AI paused',
  resumed: 'AI resumed',
  resolved: 'Conversation resolved',
  reopened: 'Conversation reopened',
  sentAgain: 'Message sent again',
  requeued: 'The answer is on its way again',
} as const

/** A person's reply as the composer and the API take it. */
export const personReplySchema = z.object({
  text: z
    .string({ error: CONVERSATION_TEXTS.textRequired })
    .trim()
    .min(1, CONVERSATION_TEXTS.textRequired)
    .max(PERSON_REPLY_MAX_LENGTH, CONVERSATION_TEXTS.textTooLong)
    .refine(hasNoNul, NUL_MESSAGE),
})

/** An idempotency key (the composer's hidden field, the API's Idempotency-Key header). */
export const clientKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, CONVERSATION_TEXTS.idempotencyKeyInvalid)

/** A file input left empty sends a nameless, empty file: no attachment. */
const attachmentSchema = z.preprocess(
  (value) => (value instanceof Blob && value.size === 0 ? undefined : value),
  z.file().optional(),
)

/**
 * The composer's form: the reply, its idempotency key, and a picture or document it may carry (then the text is
 * its caption, and may be left out).
 */
export const composerSchema = z
  .object({
    text: z
      .string()
      .trim()
      .max(PERSON_REPLY_MAX_LENGTH, CONVERSATION_TEXTS.textTooLong)
      .refine(hasNoNul, NUL_MESSAGE)
      .optional()
      .transform((text) => text || undefined),
    clientKey: clientKeySchema,
    attachment: attachmentSchema,
  })
  .refine((reply) => reply.text !== undefined || reply.attachment !== undefined, {
    path: ['text'],
    message: CONVERSATION_TEXTS.textRequired,
  })

/** "Pause AI" for a time, in minutes; left out: until resumed. 0 also means until resumed. */
export const pauseSchema = z.object({
  // A JSON number (the API) or absent (the screen's button): "30", true or null are refused, not coerced.
  minutes: z
    .number({ error: CONVERSATION_TEXTS.minutesInvalid })
    .int(CONVERSATION_TEXTS.minutesInvalid)
    .min(0, CONVERSATION_TEXTS.minutesInvalid)
    .max(MAX_PAUSE_MINUTES, CONVERSATION_TEXTS.minutesInvalid)
    .optional(),
})

/** The longest snooze, in minutes (30 days), and the times the screen offers. */
export const MAX_SNOOZE_MINUTES = 30 * 24 * 60
export const SNOOZE_CHOICES = [
  { minutes: 60, label: '1 hour' },
  { minutes: 4 * 60, label: '4 hours' },
  { minutes: 24 * 60, label: '1 day' },
  { minutes: 3 * 24 * 60, label: '3 days' },
  { minutes: 7 * 24 * 60, label: '1 week' },
] as const

const snoozeMinutesSchema = z
  .number({ error: CONVERSATION_TEXTS.snoozeInvalid })
  .int(CONVERSATION_TEXTS.snoozeInvalid)
  .min(1, CONVERSATION_TEXTS.snoozeInvalid)
  .max(MAX_SNOOZE_MINUTES, CONVERSATION_TEXTS.snoozeInvalid)

/** A status change needs its snooze time exactly when it snoozes. */
const snoozeGiven = (change: { status: ConversationStatus; snoozeMinutes?: number }) =>
  (change.status === 'snoozed') === (change.snoozeMinutes !== undefined)

/** A person's "Resolve", "Reopen" or "Snooze" (for minutes: the customer's next message opens it sooner). */
export const statusChangeSchema = z
  .object({
    status: z.enum(CONVERSATION_STATUSES, { error: CONVERSATION_TEXTS.statusInvalid }),
    snoozeMinutes: snoozeMinutesSchema
      .optional()
      .meta({ description: 'With `snoozed` only: how long until it opens again by itself' }),
  })
  .refine(snoozeGiven, { message: CONVERSATION_TEXTS.snoozeInvalid, path: ['snoozeMinutes'] })

/** The same from the screen's forms, whose fields are text. */
export const statusFormSchema = z
  .object({
    status: statusChangeSchema.shape.status,
    snoozeMinutes: z.preprocess(
      (value) => (value === undefined || value === '' ? undefined : Number(value)),
      snoozeMinutesSchema.optional(),
    ),
  })
  .refine(snoozeGiven, { message: CONVERSATION_TEXTS.snoozeInvalid, path: ['snoozeMinutes'] })

/** A channel's hand-back to the AI, in minutes after a person's last reply; 0: stays paused until resumed. */
export const MAX_AUTO_RESUME_MINUTES = 24 * 60
export const autoResumeMinutesSchema = z
  .number({ error: AUTO_RESUME_MESSAGE })
  .int(AUTO_RESUME_MESSAGE)
  .min(0, AUTO_RESUME_MESSAGE)
  .max(MAX_AUTO_RESUME_MINUTES, AUTO_RESUME_MESSAGE)

/** A member as the API names them: their user id (uid), as in the organization's members. */
const memberUidSchema = z
  .string({ error: CONVERSATION_TEXTS.assigneeNotMember })
  .regex(/^[\x21-\x7e]{1,128}$/, CONVERSATION_TEXTS.assigneeNotMember)

/** Who a conversation is assigned to, as a filter: the caller ("me"), nobody ("none"), or a member's uid. */
export const ASSIGNEE_FILTERS = ['me', 'none'] as const
export const assigneeFilterSchema = z.union([z.enum(ASSIGNEE_FILTERS), memberUidSchema])

/** A person assigns a conversation to a member (their uid), or unassigns it (null). */
export const assignSchema = z.object({
  assigneeUid: memberUidSchema
    .nullable()
    .meta({ description: "The member's user id (uid); null: unassigned" }),
})

/** A label as it is kept: trimmed, lower case, single spaces. */
export const labelSchema = z
  .string({ error: CONVERSATION_TEXTS.labelInvalid })
  .transform((value) => value.trim().replace(/\s+/g, ' ').toLowerCase())
  .pipe(
    z
      .string()
      .regex(new RegExp(`^[\\p{L}\\p{N} _-]{1,${LABEL_MAX_LENGTH}}$`, 'u'), CONVERSATION_TEXTS.labelInvalid),
  )

/** A conversation's labels, all of them (those left out are taken off); the same label twice counts once. */
export const labelsSchema = z.object({
  labels: z
    .array(labelSchema, { error: CONVERSATION_TEXTS.labelInvalid })
    .transform((labels) => [...new Set(labels)].sort())
    .pipe(z.array(z.string()).max(MAX_LABELS, CONVERSATION_TEXTS.labelsTooMany)),
})

/** The screen's labels field: the labels separated by commas (empty: none). */
export const labelsFormSchema = z.object({
  labels: z
    .string()
    .optional()
    .transform((value) => (value ?? '').split(',').filter((label) => label.trim() !== ''))
    .pipe(labelsSchema.shape.labels),
})

/** The screen's assignee picker: an empty choice is "Unassigned". */
export const assignFormSchema = z.object({
  assigneeUid: z
    .string()
    .optional()
    .transform((value) => value?.trim() || null)
    .pipe(assignSchema.shape.assigneeUid),
})

/** The list's filters, from the screen's query string or the API's. */
export const conversationFiltersSchema = z.object({
  channelId: idSchema.optional(),
  label: labelSchema.optional().meta({ description: 'Only the conversations with this label' }),
  assignee: assigneeFilterSchema.optional().meta({
    description: "`me`: the caller's; `none`: unassigned; or a member's user id (uid)",
  }),
  state: z.enum(CONVERSATION_STATES).optional(),
  status: z.enum(CONVERSATION_STATUSES).optional(),
  q: z.string().trim().max(SEARCH_MAX_LENGTH).refine(hasNoNul, NUL_MESSAGE).optional(),
})
export type ConversationFilters = z.output<typeof conversationFiltersSchema>

export const conversationListQuerySchema = conversationFiltersSchema.extend({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(CONVERSATION_PAGE_SIZE),
})

/** A page of older messages: those before the message with this sequence. */
export const conversationMessagesQuerySchema = z.object({
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(MESSAGE_PAGE_SIZE),
})

/**
 * Whether a person may write in the conversation now: its channel must be active, its token not refused, on a platform
 * we send to, and the platform's window open (personReplyWindow).
 */
export function personReplyAvailability(
  conversation: {
    channel: { platformName: string; status: string; tokenRefused?: boolean }
    lastInboundAt: string | Date | null
  },
  now: Date = new Date(),
): ReplyWindow {
  const { platformName, status } = conversation.channel
  if (!['telegram', 'facebook', 'whatsapp'].includes(platformName)) {
    return { open: false, reason: CONVERSATION_TEXTS.unsupportedPlatform(platformName) }
  }
  if (status !== 'active') return { open: false, reason: CONVERSATION_TEXTS.channelNotActive(status) }
  if (conversation.channel.tokenRefused) return { open: false, reason: CONVERSATION_TEXTS.channelTokenDead }
  const last = conversation.lastInboundAt ? new Date(conversation.lastInboundAt) : null
  return personReplyWindow(platformName, last, now)
}

/** An ISO 8601 time, as the inbox's reads give it. */
const isoTime = z.string().meta({ format: 'date-time' })
/** A point in time: a Date on the server, an ISO 8601 string once it is JSON (as the OpenAPI document says). */
const timestamp = z.date().meta({ type: 'string', format: 'date-time' })

/** A conversation as the inbox's list shows it; the service's ConversationSummary is this. */
export const conversationSummarySchema = z.object({
  id: z.string(),
  channel: z.object({ id: z.string(), platformName: z.enum(PLATFORM_NAMES), name: z.string() }),
  customer: z.object({
    name: z.string().nullable(),
    platformId: z.string(),
    language: z.string().nullable().meta({
      description:
        'The language the customer writes in (ISO 639-1), else the one their app is set to (a BCP 47 tag); null until known',
    }),
  }),
  lastMessage: z.object({
    at: isoTime,
    text: z.string().nullable(),
    direction: z.enum(MESSAGE_DIRECTIONS).nullable(),
  }),
  state: z.enum(CONVERSATION_STATES),
  status: z.enum(CONVERSATION_STATUSES).meta({
    description:
      "Open; resolved until the customer's next message; snoozed until `snoozedUntil` or that message",
  }),
  snoozedUntil: isoTime.nullable(),
  aiPausedUntil: isoTime
    .nullable()
    .meta({ description: 'Paused: when the AI answers again by itself (null: when a person resumes it)' }),
  attentionReason: z.string().nullable(),
  assignee: z
    .object({ uid: z.string(), name: z.string() })
    .nullable()
    .meta({ description: 'The member who answers it; null: unassigned' }),
  labels: z.array(z.string()).meta({ description: 'Its labels, in alphabetical order' }),
  unread: z.boolean().meta({
    description: 'A message came since the caller last opened it in the inbox (false in a single read)',
  }),
})

/** The model run behind an AI answer: model, tokens, latency and the execution id. */
export const agentRunDetailSchema = z.object({
  executionId: z.string(),
  modelUsed: z.string().nullable(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  totalTokens: z.number().int(),
  latencyMs: z.number().int(),
  createdAt: isoTime,
})

/** One message of a conversation, either way, with who wrote it. */
export const conversationMessageSchema = z.object({
  id: z.string(),
  /** Its place in the conversation (a page of older messages is asked for `before` one). */
  sequence: z.number().int(),
  direction: z.enum(MESSAGE_DIRECTIONS),
  text: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  failureReason: z.string().nullable(),
  at: isoTime,
  senderName: z.string().nullable(),
  /**
   * A customer's voice note, photo or file (docs/decisions/074): what it is, whether it was read (a voice note's
   * transcript is `text`), and the file when it was fetched (served by the inbox's media route).
   */
  media: z
    .object({
      kind: z.enum(MESSAGE_KINDS),
      state: z.enum(['pending', 'read', 'failed']),
      reason: z.string().nullable(),
      fileName: z.string().nullable(),
      file: z.object({ contentType: z.string(), byteSize: z.number().int() }).nullable(),
    })
    .nullable(),
  /**
   * Who wrote it: the customer; the agent (with its model run); a person of the organization, from the inbox;
   * or someone outside it (natively on the platform: the Page inbox, the WhatsApp Business app; or the API).
   */
  author: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('customer') }),
    z.object({
      kind: z.literal('ai'),
      agentName: z.string().nullable(),
      run: agentRunDetailSchema.nullable(),
    }),
    z.object({ kind: z.literal('person'), name: z.string().nullable() }),
    z.object({ kind: z.literal('external'), name: z.string().nullable() }),
  ]),
})

/** One conversation with a page of its messages, oldest first; `hasOlder`: there are messages before them. */
export const conversationDetailSchema = conversationSummarySchema.extend({
  channel: conversationSummarySchema.shape.channel.extend({
    status: z.enum(CHANNEL_STATUSES),
    tokenRefused: z.boolean().meta({
      description:
        "The platform refused the channel's token (a send or a health check): no reply can be sent",
    }),
    autoResumeMinutes: z.number().int(),
  }),
  lastInboundAt: isoTime.nullable(),
  messages: z.array(conversationMessageSchema),
  hasOlder: z.boolean(),
})

/** Whether the AI is paused, since when and until when (null: until a person resumes it). */
export const pauseStateSchema = z.object({
  aiPausedAt: timestamp.nullable(),
  aiPausedUntil: timestamp.nullable(),
})

/** A conversation's status after a change. */
export const statusStateSchema = z.object({
  status: z.enum(CONVERSATION_STATUSES),
  resolvedAt: timestamp.nullable().meta({ description: 'When it was last resolved' }),
  snoozedUntil: timestamp.nullable().meta({ description: 'Snoozed: when it opens again by itself' }),
})

/** A conversation's assignee after a change. */
export const assigneeStateSchema = z.object({
  assignee: conversationSummarySchema.shape.assignee,
})

/** The inbox's views of the open conversations, each with its count. */
export const CONVERSATION_VIEWS = ['mine', 'unassigned', 'needs_attention', 'all'] as const
export type ConversationView = (typeof CONVERSATION_VIEWS)[number]
export type ViewCounts = Record<ConversationView, number>

/** A person's reply as sent (or, for a key used before, as sent then); `sentNow` false: nothing was sent now. */
export const personReplyResultSchema = z.object({
  message: conversationMessageSchema.pick({
    id: true,
    sequence: true,
    text: true,
    status: true,
    failureReason: true,
  }),
  sentNow: z.boolean(),
  aiPausedUntil: timestamp.nullable(),
})

/** What the customer can still be sent by a person, counted from their last message (see personReplyRoute). */
export type ReplyWindow = { open: true; tag?: 'HUMAN_AGENT' } | { open: false; reason: string }

/**
 * The platforms' rules for a person's free-form message: Telegram has none; Messenger answers as a response
 * within 24 hours of the customer's last message and with the HUMAN_AGENT tag for 7 days, then refuses;
 * WhatsApp allows free-form text only within its 24-hour customer-service window.
 */
export function personReplyWindow(
  platform: string,
  lastInboundAt: Date | null,
  now: Date = new Date(),
): ReplyWindow {
  const since = lastInboundAt ? now.getTime() - lastInboundAt.getTime() : Number.POSITIVE_INFINITY
  if (platform === 'facebook') {
    if (since <= MESSENGER_STANDARD_WINDOW_MS) return { open: true }
    if (since <= MESSENGER_HUMAN_AGENT_WINDOW_MS) return { open: true, tag: 'HUMAN_AGENT' }
    return { open: false, reason: CONVERSATION_TEXTS.messengerWindowClosed }
  }
  if (platform === 'whatsapp') {
    if (since <= WHATSAPP_SERVICE_WINDOW_MS) return { open: true }
    return { open: false, reason: CONVERSATION_TEXTS.whatsappWindowClosed }
  }
  return { open: true }
}

export type ConversationSummary = z.output<typeof conversationSummarySchema>
export type ConversationMessage = z.output<typeof conversationMessageSchema>
export type ConversationDetail = z.output<typeof conversationDetailSchema>
export type AgentRunDetail = z.output<typeof agentRunDetailSchema>
