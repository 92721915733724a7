import { z } from 'zod'
import type { PlatformName } from '~/lib/channels'
import { hasNoNul, idSchema, NUL_MESSAGE } from '~/lib/input'

/** The inbox's rules and texts, client-safe: the Conversations screens, the API contract and the services share them. */

export const CONVERSATION_STATES = ['ai', 'paused', 'needs_attention'] as const
export type ConversationState = (typeof CONVERSATION_STATES)[number]

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

/** The platforms' windows for a business's free-form messages, counted from the customer's last message. */
export const MESSENGER_STANDARD_WINDOW_MS = 24 * 60 * 60 * 1000
/** Messenger's HUMAN_AGENT tag: a person may answer for 7 days after the customer's last message. */
export const MESSENGER_HUMAN_AGENT_WINDOW_MS = 7 * 24 * 60 * 60 * 1000
export const WHATSAPP_SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000

/** Who wrote a reply on the platform itself (its echo names no person), as the inbox shows it. */
export const PLATFORM_REPLY_SENDERS = { facebook: 'Page inbox', whatsapp: 'WhatsApp Business app' } as const

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
  unsupportedPlatform: (platform: string) => `Replies on ${platform} are not supported`,
  notRetryable: 'Only a failed reply can be sent again',
  idempotencyKeyInvalid: 'Idempotency-Key must be 1 to 200 visible characters',
  empty: 'No conversations yet',
  emptyHint:
    'Connect a channel and assign an agent to it: every conversation with your customers shows up here.',
  noMatches: 'No conversations match these filters',
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

/** The composer's form: the reply and its idempotency key. */
export const composerSchema = personReplySchema.extend({ clientKey: clientKeySchema })

/** "Pause AI" for a time, in minutes; left out: until resumed. 0 also means until resumed. */
export const pauseSchema = z.object({
  minutes: z.coerce
    .number({ error: CONVERSATION_TEXTS.minutesInvalid })
    .int(CONVERSATION_TEXTS.minutesInvalid)
    .min(0, CONVERSATION_TEXTS.minutesInvalid)
    .max(MAX_PAUSE_MINUTES, CONVERSATION_TEXTS.minutesInvalid)
    .optional(),
})

/** The list's filters, from the screen's query string or the API's. */
export const conversationFiltersSchema = z.object({
  channelId: idSchema.optional(),
  state: z.enum(CONVERSATION_STATES).optional(),
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
 * Whether a person may write in the conversation now: its channel must be active, with a token, on a platform
 * we send to, and the platform's window open (personReplyWindow).
 */
export function personReplyAvailability(
  conversation: {
    channel: { platformName: string; status: string }
    lastInboundAt: string | Date | null
  },
  now: Date = new Date(),
): ReplyWindow {
  const { platformName, status } = conversation.channel
  if (!['telegram', 'facebook', 'whatsapp'].includes(platformName)) {
    return { open: false, reason: CONVERSATION_TEXTS.unsupportedPlatform(platformName) }
  }
  if (status !== 'active') return { open: false, reason: CONVERSATION_TEXTS.channelNotActive(status) }
  const last = conversation.lastInboundAt ? new Date(conversation.lastInboundAt) : null
  return personReplyWindow(platformName, last, now)
}

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

// What the inbox shows, as the services give it to the screens and the API (dates as ISO strings).

export type ConversationSummary = {
  id: string
  channel: { id: string; platformName: PlatformName; name: string }
  customer: { name: string | null; platformId: string }
  lastMessage: { at: string; text: string | null; direction: 'inbound' | 'outbound' | null }
  state: ConversationState
  /** Paused: when the AI answers again by itself (null: when a person resumes it). */
  aiPausedUntil: string | null
  attentionReason: string | null
}

export type ConversationMessage = {
  id: string
  sequence: number
  direction: 'inbound' | 'outbound'
  text: string
  status: string
  failureReason: string | null
  at: string
  senderName: string | null
  /** Who wrote an outbound message: the agent (with its run) or a person of the organization. */
  author:
    | { kind: 'customer' }
    | { kind: 'ai'; agentName: string | null; run: AgentRunDetail | null }
    | { kind: 'person'; name: string | null }
}

export type ConversationDetail = ConversationSummary & {
  channel: ConversationSummary['channel'] & { status: string; autoResumeMinutes: number }
  lastInboundAt: string | null
  /** Oldest first; `hasOlder`: there are messages before the first one. */
  messages: ConversationMessage[]
  hasOlder: boolean
}

export type AgentRunDetail = {
  executionId: string
  modelUsed: string | null
  promptTokens: number
  completionTokens: number
  totalTokens: number
  latencyMs: number
  createdAt: string
}
