import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  bigint,
  boolean,
  foreignKey,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { AGENT_DEFAULTS, AGENT_STATUS_VALUES, MODEL_TYPES } from '~/lib/agents/schemas'
import { BEHAVIOUR_TEXTS, EXISTING_AGENT_BEHAVIOUR, type OfficeHours } from '~/lib/agents/behaviour'
import { BUILT_IN_LANGUAGES, type TextTranslations } from '~/lib/agents/built-in-texts'
import {
  CONVERSATION_STATES,
  CONVERSATION_STATUSES,
  MESSAGE_DIRECTIONS,
  MESSAGE_KINDS,
  MESSAGE_STATUSES,
  OUTBOUND_MESSAGE_STATUSES,
} from '~/lib/conversations/conversations'
import { DEFAULT_MEDIA_RETENTION_DAYS, type MessageMedia } from '~/lib/conversations/media'
import {
  AGENT_KNOWLEDGE_DEFAULTS,
  AGENT_KNOWLEDGE_MODES,
  EXISTING_AGENT_KNOWLEDGE_MODE,
  KNOWLEDGE_SOURCE_KINDS,
  KNOWLEDGE_STATUSES,
  type UsedPassage,
} from '~/lib/knowledge/knowledge'
import {
  CHANNEL_STATUSES,
  CHANNEL_TYPES,
  PLATFORM_NAMES,
  type ChannelMetadata,
} from '~/lib/channels/channels'
import { CHANNEL_HEALTH_PROBLEMS } from '~/lib/channels/health'
import {
  NOTIFICATION_DELIVERY_MEDIA,
  NOTIFICATION_DELIVERY_STATUSES,
  NOTIFICATION_EVENTS,
} from '~/lib/notifications/notifications'
import { INVITATION_STATUSES, ORGANIZATION_PLANS, ORGANIZATION_ROLES } from '~/lib/organizations/schemas'

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()
/** PostgreSQL's full-text document (its text form in JavaScript; only SQL reads it). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })
const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' })

/** A person known to Firebase Authentication, mirrored here so that our rows can point at them. */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  firebaseUid: text('firebase_uid').notNull().unique(),
  email: text('email'),
  displayName: text('display_name'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  plan: text('plan', { enum: ORGANIZATION_PLANS }).notNull().default('free'),
  /** The IANA zone the dashboard's days and hours are counted in (checked with Intl when set). */
  timeZone: text('time_zone').notNull().default('UTC'),
  /** The AI resolves a conversation it answered once the customer has been quiet this long; 0: never. */
  autoResolveHours: integer('auto_resolve_hours').notNull().default(24),
  /** "Words your customers use" (docs/decisions/073): groups of words the knowledge search reads as one. */
  customerWords: jsonb('customer_words').$type<string[][]>().notNull().default([]),
  /** Customers' voice notes, photos and files are deleted this many days after they arrived (docs/decisions/074). */
  mediaRetentionDays: integer('media_retention_days').notNull().default(DEFAULT_MEDIA_RETENTION_DAYS),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

export type MembershipRole = (typeof ORGANIZATION_ROLES)[number]

export const memberships = pgTable(
  'memberships',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ORGANIZATION_ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.userId] }),
    index('memberships_user_id_idx').on(t.userId),
  ],
)

/**
 * An owner's offer of membership: nobody becomes a member without accepting one. It names the invitee by the
 * email the owner typed (stored lowercase) or by the user an owner named by uid (then no email is stored, so
 * none can be shown). At most one pending invitation per organization and invitee.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email'),
    invitedUserId: uuid('invited_user_id').references(() => users.id, { onDelete: 'cascade' }),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    role: text('role', { enum: ORGANIZATION_ROLES }).notNull().default('member'),
    status: text('status', { enum: INVITATION_STATUSES }).notNull().default('pending'),
    createdAt: createdAt(),
    respondedAt: timestamp('responded_at', { withTimezone: true }),
    /**
     * The email to the invited address (docs/decisions/068), sent by the worker through the same at-most-once
     * claim as notifications: pending → sending → sent, or failed after its last attempt; `none`: no email (an
     * invitation by uid, or one made before emails were sent).
     */
    emailStatus: text('email_status', { enum: ['none', 'pending', 'sending', 'sent', 'failed'] })
      .notNull()
      .default('none'),
    emailAttempts: integer('email_attempts').notNull().default(0),
    emailDueAt: timestamp('email_due_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('invitations_invitee_check', sql`${t.email} is not null or ${t.invitedUserId} is not null`),
    check('invitations_email_lowercase_check', sql`${t.email} = lower(${t.email})`),
    index('invitations_email_due_idx')
      .on(t.emailDueAt)
      .where(sql`email_status = 'pending'`),
    uniqueIndex('invitations_pending_email_idx')
      .on(t.organizationId, t.email)
      .where(sql`${t.status} = 'pending'`),
    uniqueIndex('invitations_pending_user_idx')
      .on(t.organizationId, t.invitedUserId)
      .where(sql`${t.status} = 'pending'`),
    index('invitations_email_idx')
      .on(t.email)
      .where(sql`${t.status} = 'pending'`),
    index('invitations_invited_user_idx')
      .on(t.invitedUserId)
      .where(sql`${t.status} = 'pending'`),
  ],
)

/** A server-side sign-in session; the cookie holds only its id. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The organization the person works in; checked against memberships on every use. */
    currentOrganizationId: uuid('current_organization_id').references(() => organizations.id, {
      onDelete: 'set null',
    }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
)

/** An AI agent of an organization; its readable id is unique in the organization and never changes. */
export const agents = pgTable(
  'agents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    readableId: text('readable_id').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    modelType: text('model_type', { enum: MODEL_TYPES }).notNull().default(AGENT_DEFAULTS.modelType),
    creativityLevel: doublePrecision('creativity_level').notNull().default(AGENT_DEFAULTS.creativityLevel),
    systemPrompt: text('system_prompt').notNull(),
    maxTokens: integer('max_tokens').default(AGENT_DEFAULTS.maxTokens),
    topP: doublePrecision('top_p').default(AGENT_DEFAULTS.topP),
    topK: integer('top_k').default(AGENT_DEFAULTS.topK),
    status: text('status', { enum: AGENT_STATUS_VALUES }).notNull().default(AGENT_DEFAULTS.status),
    // Behaviour in a conversation (issue #17, docs/decisions/041). The column defaults are what agents made
    // before it keep; a new agent takes AGENT_BEHAVIOUR_DEFAULTS from the form or the API.
    /** Messages a customer sends within this many seconds are answered once, together. 0: each at once. */
    burstWaitSeconds: integer('burst_wait_seconds')
      .notNull()
      .default(EXISTING_AGENT_BEHAVIOUR.burstWaitSeconds),
    handoffEnabled: boolean('handoff_enabled').notNull().default(EXISTING_AGENT_BEHAVIOUR.handoffEnabled),
    handoffMessage: text('handoff_message').notNull().default(BEHAVIOUR_TEXTS.handoffMessage),
    /** Sent when the model fails after its retries; empty: nothing is sent. */
    fallbackMessage: text('fallback_message').notNull().default(BEHAVIOUR_TEXTS.fallbackMessage),
    /** Sent once per burst of messages the agent cannot read (voice notes, photos...); empty: nothing. */
    unreadableMessage: text('unreadable_message').notNull().default(BEHAVIOUR_TEXTS.unreadableMessage),
    /** Null: no office hours (the agent answers at any time). */
    officeHours: jsonb('office_hours').$type<OfficeHours>(),
    // What the agent answers from (issue #18, docs/decisions/042): agents made before it answer from their system
    // prompt only (the column default); a new one takes AGENT_KNOWLEDGE_DEFAULTS (all of the knowledge).
    knowledgeMode: text('knowledge_mode', { enum: AGENT_KNOWLEDGE_MODES })
      .notNull()
      .default(EXISTING_AGENT_KNOWLEDGE_MODE),
    /** With `knowledgeMode` 'selected': the sources it answers from (a deleted one is simply no longer found). */
    knowledgeSourceIds: uuid('knowledge_source_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    knowledgePassages: integer('knowledge_passages')
      .notNull()
      .default(AGENT_KNOWLEDGE_DEFAULTS.knowledgePassages),
    /** 0-1: passages scoring less are not given to the model (see ADR 043 for the score). */
    knowledgeMinRelevance: doublePrecision('knowledge_min_relevance')
      .notNull()
      .default(AGENT_KNOWLEDGE_DEFAULTS.knowledgeMinRelevance),
    /** Sent, without asking the model, when no passage is relevant to a question. */
    knowledgeNoAnswerMessage: text('knowledge_no_answer_message')
      .notNull()
      .default(AGENT_KNOWLEDGE_DEFAULTS.knowledgeNoAnswerMessage),
    // The language it answers in (issue 36, docs/decisions/072): null answers in the customer's language.
    replyLanguage: text('reply_language', { enum: BUILT_IN_LANGUAGES }),
    /** The owner's own words for the built-in messages, by language: `{ es: { handoff: '...' } }`. */
    translations: jsonb('text_translations').$type<TextTranslations>().notNull().default({}),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('agents_organization_readable_id_idx').on(t.organizationId, t.readableId),
    index('agents_organization_status_idx').on(t.organizationId, t.status),
  ],
)

/** One call of an agent's model: a test from the Agents screen or a reply to a customer. */
export const agentRuns = pgTable(
  'agent_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    executionId: text('execution_id').notNull().unique(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    input: text('input').notNull(),
    output: text('output'),
    modelUsed: text('model_used'),
    promptTokens: integer('prompt_tokens').notNull().default(0),
    completionTokens: integer('completion_tokens').notNull().default(0),
    totalTokens: integer('total_tokens').notNull().default(0),
    latencyMs: integer('latency_ms').notNull().default(0),
    testMode: boolean('test_mode').notNull().default(false),
    error: text('error'),
    /** The model handed the conversation over to a person (its `handoff` tool call), with this reason. */
    handoffReason: text('handoff_reason'),
    /** The knowledge passages the prompt carried (a snapshot: the source may change or go later). */
    knowledge: jsonb('knowledge').$type<UsedPassage[]>(),
    /** The language the question was written in (ISO 639-1), when detected: retrieval across languages shows. */
    language: text('language'),
    context: jsonb('context').$type<Record<string, unknown>>(),
    /**
     * The channel a reply's run answered on, from its context (null for tests on the Agents screen): the
     * dashboard's tokens per channel read it from an index (docs/decisions/044).
     */
    channelId: uuid('channel_id').generatedAlwaysAs(
      sql`case when context->>'channelId' ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' then (context->>'channelId')::uuid end`,
    ),
    createdAt: createdAt(),
  },
  (t) => [
    index('agent_runs_agent_created_idx').on(t.agentId, t.createdAt),
    // The dashboard's runs since its last rollup, and the rollup's own read (docs/decisions/044).
    index('agent_runs_organization_created_idx')
      .on(t.organizationId, t.createdAt)
      .where(sql`${t.testMode} = false`),
  ],
)

/**
 * A connected messaging channel. One bot, page or number belongs to one channel in the whole product
 * (unique per platform). The access token is stored encrypted (AES-256-GCM) and never leaves the server.
 */
export const channels = pgTable(
  'channels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    platformName: text('platform_name', { enum: PLATFORM_NAMES }).notNull(),
    platformChannelId: text('platform_channel_id').notNull(),
    channelType: text('channel_type', { enum: CHANNEL_TYPES }).notNull(),
    accessTokenEncrypted: text('access_token_encrypted'),
    status: text('status', { enum: CHANNEL_STATUSES }).notNull().default('active'),
    statusReason: text('status_reason'),
    agentId: uuid('agent_id').references(() => agents.id, { onDelete: 'set null' }),
    agentEnabled: boolean('agent_enabled').notNull().default(true),
    webhookSubscribed: boolean('webhook_subscribed').notNull().default(false),
    /** SHA-256 of the secret Telegram echoes in X-Telegram-Bot-Api-Secret-Token; the secret itself is not kept. */
    webhookSecretHash: text('webhook_secret_hash'),
    metadata: jsonb('metadata').$type<ChannelMetadata>().notNull().default({}),
    /** When the platform last confirmed the token (a refresh); null: not since the connect. */
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    /** The inbox's hand-back: the AI answers again this many minutes after a person's last reply; 0: never by itself. */
    autoResumeMinutes: integer('auto_resume_minutes').notNull().default(30),
    /** Who gets the conversations that need a person (a handoff, a failure); null: nobody, they stay unassigned. */
    defaultAssigneeId: uuid('default_assignee_id').references(() => users.id, { onDelete: 'set null' }),
    // The health check's last conclusive answer (issue #19, docs/decisions/046); what the channel's own state
    // says (webhook off, agent archived, deliveries failing) is derived, not stored.
    /** When the platform last answered the health check; null: never checked. */
    healthCheckedAt: timestamp('health_checked_at', { withTimezone: true }),
    /** What that check found wrong; null: nothing. */
    healthProblem: text('health_problem', { enum: CHANNEL_HEALTH_PROBLEMS }),
    /** The platform's own words (or the missing permissions), for the reason shown. */
    healthDetail: text('health_detail'),
    /**
     * The private chats of members who get alerts from this bot (docs/decisions/069): never a customer's
     * conversation. Kept by a trigger on telegram_alert_links, and here so that the receivers, which load the
     * channel anyway, tell them apart without a query of their own.
     */
    memberChatIds: text('member_chat_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('channels_platform_channel_idx').on(t.platformName, t.platformChannelId),
    index('channels_organization_idx').on(t.organizationId),
  ],
)

/**
 * Which worker process long-polls a Telegram bot (when there is no public URL for a webhook): one at a time per
 * bot, since Telegram answers 409 to concurrent getUpdates. The owner renews its lease before every poll; a
 * lease that lapsed (its worker died) can be taken by another worker.
 */
export const telegramPollers = pgTable('telegram_pollers', {
  channelId: uuid('channel_id')
    .primaryKey()
    .references(() => channels.id, { onDelete: 'cascade' }),
  workerId: text('worker_id').notNull(),
  leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
})

export type User = typeof users.$inferSelect
export type Channel = typeof channels.$inferSelect
export type Agent = typeof agents.$inferSelect
export type AgentRun = typeof agentRuns.$inferSelect
export type Organization = typeof organizations.$inferSelect
export type Session = typeof sessions.$inferSelect
export type Invitation = typeof invitations.$inferSelect

/** One chat on a channel (a Telegram chat, later a Messenger or WhatsApp user), where its messages belong. */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    platformChatId: text('platform_chat_id').notNull(),
    /** The customer's name as the platform last gave it (Telegram's name or @username, WhatsApp's profile name). */
    customerName: text('customer_name'),
    /** The customer's handle on the platform (Telegram's @username), as it last gave it (docs/decisions/062). */
    customerHandle: text('customer_handle'),
    /** The customer's language as a BCP 47 tag, once known (Telegram gives its app's language). */
    customerLanguage: text('customer_language'),
    /**
     * The language the customer writes in (ISO 639-1), as detected in their latest message that told it reliably
     * (docs/decisions/071); the agent answers in it. Null until one did.
     */
    language: text('language'),
    /** What the team notes about the customer (the contact panel); '' when none. */
    customerNotes: text('customer_notes').notNull().default(''),
    /** The last message either way: what the inbox list shows and orders by (kept by a trigger, ADR 036). */
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    lastMessageText: text('last_message_text'),
    lastMessageDirection: text('last_message_direction', { enum: MESSAGE_DIRECTIONS }),
    /** The customer's last message: the platforms' 24-hour windows count from it (kept by the same trigger). */
    lastInboundAt: timestamp('last_inbound_at', { withTimezone: true }),
    /** A person took over: the AI does not answer until it is resumed (by a person, or at `aiPausedUntil`). */
    aiPausedAt: timestamp('ai_paused_at', { withTimezone: true }),
    /** When the AI answers again by itself; null while paused: until a person resumes it. */
    aiPausedUntil: timestamp('ai_paused_until', { withTimezone: true }),
    aiPausedBy: uuid('ai_paused_by').references(() => users.id, { onDelete: 'set null' }),
    /** Why a person should look at the conversation (a reply failed...); null: nothing to look at. */
    attentionReason: text('attention_reason'),
    attentionAt: timestamp('attention_at', { withTimezone: true }),
    /** Open until a person resolves it; the customer's next message opens it again (ingest and the trigger). */
    status: text('status', { enum: CONVERSATION_STATUSES }).notNull().default('open'),
    /** The last time it was resolved, and by whom. */
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    /** Snoozed: when it opens again by itself (the customer's message opens it sooner). */
    snoozedUntil: timestamp('snoozed_until', { withTimezone: true }),
    /**
     * A person was needed (a handoff, a failure) or wrote: a resolution then is not the AI's alone (the
     * dashboard's AI resolution rate), and the AI does not resolve it by itself. Set by a trigger and the
     * person's reply (migration 0023).
     */
    neededPerson: boolean('needed_person').notNull().default(false),
    /** The member who answers it; null: unassigned (the AI's conversations, until one needs a person). */
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    /** Who assigned it last (null: the channel's default): nobody is told of what they did themselves (ADR 068). */
    assignedBy: uuid('assigned_by').references(() => users.id, { onDelete: 'set null' }),
    /** When the agent last sent its out-of-hours message here: once per closed period. */
    outOfHoursNoticeAt: timestamp('out_of_hours_notice_at', { withTimezone: true }),
    /** The inbox's badge, from the columns above: needs attention first, then paused, else the AI answers. */
    state: text('state', { enum: CONVERSATION_STATES })
      .notNull()
      .generatedAlwaysAs(
        sql`case when attention_reason is not null then 'needs_attention' when ai_paused_at is not null then 'paused' else 'ai' end`,
      ),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('conversations_channel_chat_idx').on(t.channelId, t.platformChatId),
    // The list's order, `order by last_message_at desc, id desc`, is NULLS FIRST (PostgreSQL's default for desc);
    // an index built NULLS LAST (Drizzle's default for .desc()) cannot give it, whatever NOT NULL says, and the
    // list then sorts every conversation of the organization (bench:inbox). The list shows the conversations that
    // need a person first (issue #17): the indexes lead with that, so a page is still one index scan.
    index('conversations_organization_activity_idx').on(
      t.organizationId,
      sql`(${t.state} = 'needs_attention') desc nulls first`,
      t.lastMessageAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('conversations_channel_activity_idx').on(
      t.channelId,
      sql`(${t.state} = 'needs_attention') desc nulls first`,
      t.lastMessageAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The same by status (issue 33): most of a long-lived organization's conversations are resolved, and the
    // activity index above would step over them one by one to fill a page of the open ones.
    index('conversations_organization_status_activity_idx').on(
      t.organizationId,
      t.status,
      sql`(${t.state} = 'needs_attention') desc nulls first`,
      t.lastMessageAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // A member's own conversations ("Mine"); only assigned ones are indexed, so the AI's traffic never writes it.
    index('conversations_organization_assignee_activity_idx')
      .on(
        t.organizationId,
        t.assigneeId,
        t.status,
        sql`(${t.state} = 'needs_attention') desc nulls first`,
        t.lastMessageAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
      )
      .where(sql`assignee_id is not null`),
    // Paused and needs-attention conversations are few: the state filters read them from their own index.
    index('conversations_organization_state_activity_idx')
      .on(t.organizationId, t.state, t.lastMessageAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`state <> 'ai'`),
    // The list's total under every filter but the search (by organization, channel, state): an index-only count,
    // not a read of the matching rows (49,000 of them for "AI answering" in a 50,000-conversation organization).
    index('conversations_organization_channel_state_idx').on(t.organizationId, t.channelId, t.state),
    // The dashboard's conversations started since its last rollup, and the rollup's own read (docs/decisions/044).
    index('conversations_organization_created_idx').on(t.organizationId, t.createdAt),
    // The minute sweep's snoozed conversations whose time has come, and the dashboard's resolutions of a period.
    index('conversations_snoozed_until_idx')
      .on(t.snoozedUntil)
      .where(sql`status = 'snoozed'`),
    index('conversations_organization_resolved_idx')
      .on(t.organizationId, t.resolvedAt)
      .where(sql`status = 'resolved'`),
    // The hand-back's sweep: the paused conversations whose time has come.
    index('conversations_ai_paused_until_idx')
      .on(t.aiPausedUntil)
      .where(sql`ai_paused_until is not null`),
  ],
)

export type OutboundMessageStatus = (typeof OUTBOUND_MESSAGE_STATUSES)[number]

/** A message of a conversation, either way. A platform's redelivery of the same message is dropped by the unique key. */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Insertion order: timestamps tie on PGlite (millisecond clock), this never does. */
    sequence: bigint('sequence', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    direction: text('direction', { enum: MESSAGE_DIRECTIONS }).notNull(),
    /** The platform's id, scoped as the platform scopes it (Telegram: `<chat id>:<message id>`). */
    platformMessageId: text('platform_message_id'),
    senderId: text('sender_id'),
    senderName: text('sender_name'),
    text: text('text').notNull(),
    /** An inbound text's language (ISO 639-1) when detection is sure of it (docs/decisions/071); else null. */
    language: text('language'),
    /** Inbound: text, or what else the customer sent (its label is in `text`). */
    kind: text('kind', { enum: MESSAGE_KINDS }).notNull().default('text'),
    /** Inbound: the voice note, photo or file the platform announced, and whether it was read (ADR 074). */
    media: jsonb('media').$type<MessageMedia>(),
    status: text('status', { enum: MESSAGE_STATUSES }).notNull(),
    failureReason: text('failure_reason'),
    /** Outbound: the inbound message this answers (one answer per message, see the unique index). */
    replyToMessageId: uuid('reply_to_message_id').references((): AnyPgColumn => messages.id, {
      onDelete: 'set null',
    }),
    agentRunId: uuid('agent_run_id').references(() => agentRuns.id, { onDelete: 'set null' }),
    /** Outbound: how many parts of a long answer (split at the platform's limit) have gone out. */
    sentParts: integer('sent_parts').notNull().default(0),
    platformSentAt: timestamp('platform_sent_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }),
    /** Outbound from a person (the inbox's composer): who wrote it. Null: the agent (see agent_run_id). */
    authorUserId: uuid('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** A person's reply: the composer's idempotency key, so that a form sent twice sends once. */
    clientKey: text('client_key'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('messages_channel_platform_message_idx').on(t.channelId, t.direction, t.platformMessageId),
    uniqueIndex('messages_one_reply_idx')
      .on(t.replyToMessageId)
      .where(sql`${t.direction} = 'outbound'`),
    index('messages_conversation_sequence_idx').on(t.conversationId, t.sequence),
    // Channel health's "the last deliveries failed": a channel's latest answers (read backwards, newest first).
    index('messages_channel_outbound_idx')
      .on(t.channelId, t.sequence)
      .where(sql`${t.direction} = 'outbound'`),
    // The dashboard's customer messages since its last rollup, and the rollup's own read (docs/decisions/044). No
    // status in it: an inbound message's status changes (queued → replied) stay HOT updates.
    index('messages_inbound_organization_created_idx')
      .on(t.organizationId, t.createdAt)
      .where(sql`${t.direction} = 'inbound'`),
    // The dashboard's latest conversations of a failure reason, newest first (docs/decisions/044). Only a message
    // that fails or is left to a person gets a reason: that one update is not HOT, the pipeline's others stay so.
    index('messages_inbound_reason_idx')
      .on(t.organizationId, t.failureReason, t.createdAt, t.id)
      .where(sql`${t.direction} = 'inbound' and ${t.failureReason} is not null`),
    uniqueIndex('messages_client_key_idx')
      .on(t.conversationId, t.clientKey)
      .where(sql`${t.clientKey} is not null`),
  ],
)

export type Conversation = typeof conversations.$inferSelect
export type Message = typeof messages.$inferSelect

/*
 * The dashboard's rollup (docs/decisions/044): figures per local hour of the organization's time zone, written by
 * the analytics-rollup job up to the organization's `analytics_rollup.rolled_until` and rewritten for the last
 * hours on every run; the dashboard reads them before that instant and the source tables after it. A change of
 * the organization's time zone makes the job write its history again (until then the dashboard reads the source).
 */

/** Customer messages per channel and local hour, by outcome (see app/services/analytics). */
export const analyticsMessageBuckets = pgTable(
  'analytics_message_buckets',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    /** The local hour (in the organization's time zone when it was rolled up, see analyticsRollup). */
    localHour: timestamp('local_hour').notNull(),
    received: integer('received').notNull(),
    answeredByAi: integer('answered_by_ai').notNull(),
    answeredByPerson: integer('answered_by_person').notNull(),
    failed: integer('failed').notNull(),
    paused: integer('paused').notNull(),
    noAgent: integer('no_agent').notNull(),
    waiting: integer('waiting').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.localHour, t.channelId] })],
)

/** Tokens and handoffs of runs that answered customers, per agent, channel, model and local hour. */
export const analyticsRunBuckets = pgTable(
  'analytics_run_buckets',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    /** As agent_runs.channel_id: no foreign key (a run outlives its channel). */
    channelId: uuid('channel_id'),
    model: text('model'),
    /** The local hour (in the organization's time zone when it was rolled up, see analyticsRollup). */
    localHour: timestamp('local_hour').notNull(),
    promptTokens: bigint('prompt_tokens', { mode: 'number' }).notNull(),
    completionTokens: bigint('completion_tokens', { mode: 'number' }).notNull(),
    handoffs: integer('handoffs').notNull(),
  },
  (t) => [index('analytics_run_buckets_organization_hour_idx').on(t.organizationId, t.localHour)],
)

/** Why customer messages were not answered by the AI, per channel, status, reason and local hour. */
export const analyticsReasonBuckets = pgTable(
  'analytics_reason_buckets',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    /** The local hour (in the organization's time zone when it was rolled up, see analyticsRollup). */
    localHour: timestamp('local_hour').notNull(),
    status: text('status', { enum: MESSAGE_STATUSES }).notNull(),
    reason: text('reason').notNull(),
    messages: integer('messages').notNull(),
  },
  (t) => [index('analytics_reason_buckets_organization_hour_idx').on(t.organizationId, t.localHour)],
)

/**
 * Conversations started per channel and local hour, by their first-response time's bin (a histogram: lib/analytics/analytics
 * RESPONSE_BINS; -1: not answered yet), from which the dashboard's median and 90th percentile are read.
 */
export const analyticsResponseBuckets = pgTable(
  'analytics_response_buckets',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    /** The local hour (in the organization's time zone when it was rolled up, see analyticsRollup). */
    localHour: timestamp('local_hour').notNull(),
    bin: smallint('bin').notNull(),
    conversations: integer('conversations').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.localHour, t.channelId, t.bin] })],
)

/** How far each organization's rollup goes, and in which time zone its hours are. */
export const analyticsRollup = pgTable('analytics_rollup', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  timeZone: text('time_zone').notNull(),
  /** The buckets before this instant (a local hour's start) are written. */
  rolledUntil: timestamp('rolled_until', { withTimezone: true }).notNull(),
  updatedAt: updatedAt(),
})

/**
 * One source of an organization's knowledge: an FAQ entry, a text, an uploaded file or a web page (with the
 * pages it links to on its site). Stored as given, then processed by a job into passages (docs/decisions/042).
 * `revision` grows with every change and re-fetch: a job processes the revision it was sent for, or nothing.
 */
export const knowledgeSources = pgTable(
  'knowledge_sources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: KNOWLEDGE_SOURCE_KINDS }).notNull(),
    title: text('title').notNull(),
    status: text('status', { enum: KNOWLEDGE_STATUSES }).notNull().default('processing'),
    failureReason: text('failure_reason'),
    /** FAQ: the question (the title is the question too). */
    question: text('question'),
    /** FAQ: the answer; text: the body. */
    body: text('body'),
    /** File: its name as uploaded, the type read from its content, and the bytes (kept to process again). */
    fileName: text('file_name'),
    fileType: text('file_type'),
    fileData: bytea('file_data'),
    /** Web page: the address, and whether (and how far) to follow links on its site. */
    url: text('url'),
    crawl: boolean('crawl').notNull().default(false),
    maxPages: integer('max_pages').notNull().default(1),
    /** Web page: the pages the last fetch read, and those it could not. */
    pages: jsonb('pages').$type<{ url: string; title: string; error?: string }[]>(),
    /** The text configuration its passages are indexed with, detected from its text (english, german...). */
    language: text('language'),
    sizeBytes: integer('size_bytes').notNull().default(0),
    passageCount: integer('passage_count').notNull().default(0),
    revision: integer('revision').notNull().default(1),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('knowledge_sources_organization_idx').on(t.organizationId, t.createdAt.desc(), t.id)],
)

/** A passage of a source: a few hundred words under their heading path, indexed for full-text search. */
export const knowledgePassages = pgTable(
  'knowledge_passages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sourceId: uuid('source_id')
      .notNull()
      .references(() => knowledgeSources.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    headingPath: text('heading_path')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    text: text('text').notNull(),
    /** Web page: the page it was read from. */
    url: text('url'),
    /** Title and headings weighted A, the text D, in the source's language (ADR 043). */
    searchVector: tsvector('search_vector').notNull(),
    /** The embedding model's vector, when one is configured (ADR 043: scored in the application). */
    embedding: real('embedding').array(),
    createdAt: createdAt(),
  },
  (t) => [
    index('knowledge_passages_search_idx').using('gin', t.searchVector),
    index('knowledge_passages_source_idx').on(t.sourceId, t.position),
    index('knowledge_passages_organization_idx').on(t.organizationId),
  ],
)

/**
 * The distinct words of an organization's passages ('simple' configuration): a customer's typo is corrected to the
 * nearest of them by trigram similarity (pg_trgm) before the search. Words of deleted sources stay (harmless: a
 * correction to a word no passage holds finds nothing).
 */
export const knowledgeWords = pgTable(
  'knowledge_words',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    word: text('word').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.word] }),
    index('knowledge_words_trigram_idx').using('gin', sql`${t.word} gin_trgm_ops`),
  ],
)

/**
 * How many passages of an organization hold each lexeme (in its sources' languages): the search weighs a word of
 * the question by how rare it is (inverse document frequency, ADR 043). Kept by the statements that write and
 * delete passages.
 */
export const knowledgeLexemes = pgTable(
  'knowledge_lexemes',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    lexeme: text('lexeme').notNull(),
    passages: integer('passages').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.lexeme] })],
)

export type KnowledgeSource = typeof knowledgeSources.$inferSelect
export type KnowledgePassage = typeof knowledgePassages.$inferSelect

/**
 * An organization's saved reply (issue 33): a text its members insert in the composer by its shortcut, with
 * `{{first_name}}` standing for the customer's first name.
 */
export const savedReplies = pgTable(
  'saved_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    shortcut: text('shortcut').notNull(),
    text: text('text').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('saved_replies_organization_shortcut_idx').on(t.organizationId, t.shortcut)],
)
export type SavedReply = typeof savedReplies.$inferSelect

/**
 * A conversation's labels (issue 33): words a team files conversations under ("refund", "vip"), the list
 * filtered by one. A table of their own, not a column of the conversation: the AI's updates of a conversation
 * never write them.
 */
export const conversationLabels = pgTable(
  'conversation_labels',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.label] }),
    index('conversation_labels_organization_label_idx').on(t.organizationId, t.label, t.conversationId),
  ],
)

/**
 * What the inbox's search matches: the distinct words of a conversation's messages, either way ('simple'
 * configuration), a row each, written by the messages' insert trigger (docs/decisions/039 and 077). A message
 * adds only the words the conversation did not have yet, whatever its length; the index finds the conversations
 * whose words start with a searched one.
 */
export const conversationWords = pgTable(
  'conversation_words',
  {
    organizationId: uuid('organization_id').notNull(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    /** In "C" order (the migration's collation): a prefix is then a range of both indexes. */
    word: text('word').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.word] }),
    index('conversation_words_organization_word_idx').on(t.organizationId, t.word, t.conversationId),
  ],
)

/** When a member last opened a conversation: it is unread for them while the customer has written since. */
export const conversationReads = pgTable(
  'conversation_reads',
  {
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.userId] })],
)

/**
 * What happened that someone may be told of (docs/decisions/068): written by triggers of migration 0028 in the
 * statement that made it happen, fanned out to members by the worker (`processed_at`), once.
 */
export const notificationEvents = pgTable(
  'notification_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    event: text('event', { enum: NOTIFICATION_EVENTS }).notNull(),
    conversationId: uuid('conversation_id').references(() => conversations.id, { onDelete: 'cascade' }),
    channelId: uuid('channel_id').references(() => channels.id, { onDelete: 'cascade' }),
    /** The one member it is for (the assignee); null: whoever the event's rule names. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason'),
    createdAt: createdAt(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [
    index('notification_events_pending_idx')
      .on(t.id)
      .where(sql`processed_at is null`),
  ],
)

/** One member's notification: the bell's item, and what each medium sends. Later events within the fold join it. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The latest event folded in, and its reason. */
    event: text('event', { enum: NOTIFICATION_EVENTS }).notNull(),
    reason: text('reason'),
    conversationId: uuid('conversation_id').references(() => conversations.id, { onDelete: 'cascade' }),
    channelId: uuid('channel_id').references(() => channels.id, { onDelete: 'cascade' }),
    /** Shown in the bell (the member wants this event in the app). */
    inApp: boolean('in_app').notNull(),
    eventCount: integer('event_count').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    index('notifications_user_list_idx')
      .on(t.userId, t.organizationId, t.updatedAt.desc().nullsFirst())
      .where(sql`in_app`),
    index('notifications_user_unread_idx')
      .on(t.userId, t.organizationId)
      .where(sql`in_app and read_at is null`),
    // The fold: this member's latest notification of this conversation.
    index('notifications_user_conversation_idx').on(
      t.userId,
      t.conversationId,
      t.createdAt.desc().nullsFirst(),
    ),
  ],
)

/**
 * The outbox of one notification by one medium: sent at most once (`sending` is written before the send; a
 * process that dies after it never sends again), tried again after a refusal.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    notificationId: uuid('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    medium: text('medium', { enum: NOTIFICATION_DELIVERY_MEDIA }).notNull(),
    status: text('status', { enum: NOTIFICATION_DELIVERY_STATUSES }).notNull().default('pending'),
    /** When it may go: now, or the end of the member's quiet hours (then it goes in a digest). */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notification_deliveries_once_idx').on(t.notificationId, t.medium),
    index('notification_deliveries_due_idx')
      .on(t.dueAt)
      .where(sql`status = 'pending'`),
  ],
)

/** A member's choices: which events by which media, and quiet hours in their time zone. None: the defaults. */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** What the member changed from the defaults, by event and medium. */
  choices: jsonb('choices').notNull().default({}),
  /** Quiet hours, minutes after midnight in `time_zone`; both null: none. */
  quietStart: integer('quiet_start'),
  quietEnd: integer('quiet_end'),
  timeZone: text('time_zone').notNull().default('UTC'),
  updatedAt: updatedAt(),
})

/** A member's browser that takes Web Push (docs/decisions/068): where to send, and its keys to encrypt for. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId)],
)

/**
 * A member's Telegram alerts in one organization (issue 35, docs/decisions/069): the bot they get them from and,
 * once they opened it with their one-time code, their private chat with it. At most one per member and
 * organization; it goes with the membership.
 */
export const telegramAlertLinks = pgTable(
  'telegram_alert_links',
  {
    organizationId: uuid('organization_id').notNull(),
    userId: uuid('user_id').notNull(),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    /** SHA-256 of the one-time code the member sends the bot (`/start <code>`); null once used. */
    codeHash: text('code_hash'),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
    /** The member's private chat with the bot; null until they opened it with the code. */
    chatId: text('chat_id'),
    /** How Telegram names them (their name or @username), for the settings. */
    telegramName: text('telegram_name'),
    linkedAt: timestamp('linked_at', { withTimezone: true }),
    /** When the bot said hello in that chat (claimed before the send, like the outbox). */
    welcomedAt: timestamp('welcomed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.userId] }),
    foreignKey({
      name: 'telegram_alert_links_membership_fk',
      columns: [t.organizationId, t.userId],
      foreignColumns: [memberships.organizationId, memberships.userId],
    }).onDelete('cascade'),
    uniqueIndex('telegram_alert_links_code_idx').on(t.codeHash),
    index('telegram_alert_links_channel_idx').on(t.channelId),
  ],
)

/**
 * A customer's file, fetched from the platform by the worker (docs/decisions/074): one per message, kept in
 * PostgreSQL so that every web process serves it. Deleted with its message (its channel, its conversation) or
 * when the organization's retention period has passed.
 */
export const messageMedia = pgTable(
  'message_media',
  {
    messageId: uuid('message_id')
      .primaryKey()
      .references(() => messages.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Read from the file's first bytes, not from what the platform said. */
    contentType: text('content_type').notNull(),
    byteSize: integer('byte_size').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('message_media_organization_created_idx').on(t.organizationId, t.createdAt)],
)
export type MessageMediaRow = typeof messageMedia.$inferSelect
