import type { Database } from '~/db/client.server'
import { and, asc, desc, eq, isNull, lt, sql, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import {
  agentRuns,
  agents,
  channels,
  conversationLabels,
  conversationWords,
  conversationReads,
  conversations,
  messageMedia,
  messages,
  users,
} from '~/db/schema'
import { hasDeadToken } from '~/lib/channels/health'
import { channelDisplayName, type ChannelMetadata, type PlatformName } from '~/lib/channels/channels'
import {
  CONVERSATION_TEXTS,
  MESSAGE_PAGE_SIZE,
  type ConversationDetail,
  type ConversationFilters,
  type ConversationState,
  type ConversationStatus,
  type ConversationSummary,
} from '~/lib/conversations/conversations'
import { isUuid } from '~/lib/shared/input'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'

// The inbox's reads: the list of an organization's conversations and one conversation's messages. Every query
// is scoped by the organization of the caller's scope (tenant isolation), and each is served by an index
// (bench:inbox measures them at 100,000 conversations and 1,000,000 messages).

/** The member a conversation is assigned to (left-joined on `conversations.assignee_id` by the reads below). */
export const assigneeUser = alias(users, 'assignee_user')

export const summaryColumns = {
  id: conversations.id,
  channelId: channels.id,
  platformName: channels.platformName,
  channelType: channels.channelType,
  channelMetadata: channels.metadata,
  channelStatus: channels.status,
  channelHealthProblem: channels.healthProblem,
  autoResumeMinutes: channels.autoResumeMinutes,
  customerName: conversations.customerName,
  // What they write in (docs/decisions/071); else what their app is set to (Telegram).
  customerLanguage: sql<
    string | null
  >`coalesce(${conversations.language}, ${conversations.customerLanguage})`,
  platformChatId: conversations.platformChatId,
  lastMessageAt: conversations.lastMessageAt,
  lastMessageText: conversations.lastMessageText,
  lastMessageDirection: conversations.lastMessageDirection,
  lastInboundAt: conversations.lastInboundAt,
  state: conversations.state,
  status: conversations.status,
  snoozedUntil: conversations.snoozedUntil,
  aiPausedUntil: conversations.aiPausedUntil,
  attentionReason: conversations.attentionReason,
  assigneeUid: assigneeUser.firebaseUid,
  assigneeName: sql<string | null>`coalesce(${assigneeUser.displayName}, ${assigneeUser.email})`,
  // A page's 50 rows, each a look-up of the labels' primary key.
  labels: sql<string[]>`array(select ${conversationLabels.label} from ${conversationLabels}
    where ${conversationLabels.conversationId} = ${conversations.id} order by 1)`,
}

type SummaryRow = {
  id: string
  channelId: string
  platformName: PlatformName
  channelType: Parameters<typeof channelDisplayName>[0]['channelType']
  channelMetadata: ChannelMetadata
  customerName: string | null
  customerLanguage: string | null
  platformChatId: string
  lastMessageAt: Date
  lastMessageText: string | null
  lastMessageDirection: 'inbound' | 'outbound' | null
  state: ConversationState
  status: ConversationStatus
  snoozedUntil: Date | null
  aiPausedUntil: Date | null
  attentionReason: string | null
  assigneeUid: string | null
  assigneeName: string | null
  labels: string[]
  unread?: boolean
}

export function toSummary(row: SummaryRow): ConversationSummary {
  return {
    id: row.id,
    channel: {
      id: row.channelId,
      platformName: row.platformName,
      name: channelDisplayName({ channelType: row.channelType, metadata: row.channelMetadata }),
    },
    customer: { name: row.customerName, platformId: row.platformChatId, language: row.customerLanguage },
    lastMessage: {
      at: row.lastMessageAt.toISOString(),
      text: row.lastMessageText,
      direction: row.lastMessageDirection,
    },
    state: row.state,
    status: row.status,
    snoozedUntil: row.status === 'snoozed' ? (row.snoozedUntil?.toISOString() ?? null) : null,
    aiPausedUntil: row.aiPausedUntil?.toISOString() ?? null,
    attentionReason: row.attentionReason,
    assignee: row.assigneeUid ? { uid: row.assigneeUid, name: row.assigneeName ?? '' } : null,
    labels: row.labels,
    unread: row.unread ?? false,
  }
}

/**
 * Whether the conversation has a message (either way) since the caller last opened it, or was never opened by
 * them: the list's unread mark, a look-up of the read's primary key per row. Both times are the database's own
 * clock (a platform's send time comes in whole seconds, before the read that followed it).
 */
const unreadFor = (userId: string) =>
  sql<boolean>`not exists (
    select 1 from ${conversationReads} where ${conversationReads.conversationId} = ${conversations.id}
      and ${conversationReads.userId} = ${userId} and ${conversationReads.readAt} >= ${conversations.lastMessageAt})`

/** The caller has read the conversation as it is now (its loader, when a member opens it). */
export async function markConversationRead(scope: OrganizationScope, conversationId: string): Promise<void> {
  await scope.db
    .insert(conversationReads)
    .values({ conversationId, userId: scope.userId })
    .onConflictDoUpdate({
      target: [conversationReads.conversationId, conversationReads.userId],
      set: { readAt: sql`excluded.read_at` },
      // Already read since its last message: the live reloads of an open conversation write nothing.
      setWhere: sql`${conversationReads.readAt} < (select ${conversations.lastMessageAt} from ${conversations}
        where ${conversations.id} = ${conversationId})`,
    })
}

/** The join of summaryColumns' assignee. */
export const assigneeJoin = eq(assigneeUser.id, conversations.assigneeId)

/**
 * A search's words (at most 8), each matched as the start of a word of the conversation's messages ('simple'
 * configuration: no stemming, any language): the conversation must hold every one (docs/decisions/077). Each word
 * is a range of the words index (in "C" order, a prefix is a range), read once for the organization; the
 * conversations of every range are intersected before any conversation is read, whatever the planner estimates
 * of each range (it cannot: a prefix among a million words is one slice of one histogram bucket).
 */
function searchCondition(scope: OrganizationScope, q: string): SQL | undefined {
  const words = q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8)
  if (words.length === 0) return undefined
  const ranges = words.map(
    (word) => sql`select ${conversationWords.conversationId} from ${conversationWords}
      where ${conversationWords.organizationId} = ${scope.organizationId}
        and ${conversationWords.word} >= ${word} and ${conversationWords.word} < ${word} || chr(1114111)`,
  )
  return sql`${conversations.id} in (${sql.join(ranges, sql` intersect `)})`
}

/** The list's first key: conversations that need a person come first (the activity indexes lead with it). */
export const needsAttentionFirst = sql`(${conversations.state} = 'needs_attention') desc`

export function listConditions(scope: OrganizationScope, filters: ConversationFilters): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(conversations.organizationId, scope.organizationId)]
  if (filters.channelId) conditions.push(eq(conversations.channelId, filters.channelId))
  if (filters.state) conditions.push(eq(conversations.state, filters.state))
  if (filters.status) conditions.push(eq(conversations.status, filters.status))
  if (filters.label) {
    conditions.push(
      sql`${conversations.id} in (select ${conversationLabels.conversationId} from ${conversationLabels}
        where ${conversationLabels.organizationId} = ${scope.organizationId} and ${conversationLabels.label} = ${filters.label})`,
    )
  }
  if (filters.assignee === 'none') conditions.push(isNull(conversations.assigneeId))
  else if (filters.assignee === 'me') conditions.push(eq(conversations.assigneeId, scope.userId))
  else if (filters.assignee) {
    const member = sql`(select ${users.id} from ${users} where ${users.firebaseUid} = ${filters.assignee})`
    conditions.push(eq(conversations.assigneeId, member))
  }
  // A conversation matches when its messages, together, hold every word: its own words (docs/decisions/039 and
  // 077), not its messages, so that counting the matches reads one row per conversation and word.
  if (filters.q) conditions.push(searchCondition(scope, filters.q))
  return and(...conditions)
}

/**
 * The organization's conversations, those that need a person first, then newest activity first, filtered by
 * channel, state and words of their messages, a page at a time. The first key stays under a state filter too
 * (where it is the same for every row): the activity indexes lead with it, so "AI answering" in a large
 * organization is still an index scan that stops at the page (bench:inbox: 250 ms p95 without it, a sort).
 */
export async function listConversations(
  scope: OrganizationScope,
  query: ConversationFilters & { page: number; pageSize: number },
): Promise<{ items: ConversationSummary[]; total: number; page: number; pageSize: number }> {
  const where = listConditions(scope, query)
  const [rows, [{ total }]] = await Promise.all([
    scope.db
      .select({ ...summaryColumns, unread: unreadFor(scope.userId) })
      .from(conversations)
      .innerJoin(channels, eq(channels.id, conversations.channelId))
      .leftJoin(assigneeUser, assigneeJoin)
      .where(where)
      .orderBy(needsAttentionFirst, desc(conversations.lastMessageAt), desc(conversations.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    scope.db
      .select({ total: sql<number>`count(*)::int` })
      .from(conversations)
      .where(where),
  ])
  return { items: rows.map(toSummary), total, page: query.page, pageSize: query.pageSize }
}

/**
 * How many of the organization's conversations need a person now: the sidebar's and the tab title's count (the
 * caller's organization, one they are a member of: the layout's current one, or a scope's). Read
 * from the partial index of the states other than the AI's (few rows), whatever the organization's size.
 */
export async function countNeedingAttention(db: Database, organizationId: string): Promise<number> {
  const [{ count }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(conversations)
    .where(and(eq(conversations.organizationId, organizationId), eq(conversations.state, 'needs_attention')))
  return count
}

/** Who wrote an outbound message: its agent (through its run) or its member; joined by the reads below. */
export const author = {
  agentName: agents.name,
  authorName: sql<string | null>`coalesce(${users.displayName}, ${users.email})`,
}

/**
 * One conversation of the organization with a page of its messages (the latest `limit`, or those before the
 * message with sequence `before`), oldest first. Another organization's conversation is not found.
 */
export async function getConversation(
  scope: OrganizationScope,
  conversationId: string,
  page: { before?: number; limit?: number } = {},
): Promise<ConversationDetail> {
  if (!isUuid(conversationId)) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
  const limit = page.limit ?? MESSAGE_PAGE_SIZE
  const [[row], rows] = await Promise.all([
    scope.db
      .select(summaryColumns)
      .from(conversations)
      .innerJoin(channels, eq(channels.id, conversations.channelId))
      .leftJoin(assigneeUser, assigneeJoin)
      .where(
        and(eq(conversations.id, conversationId), eq(conversations.organizationId, scope.organizationId)),
      )
      .limit(1),
    scope.db
      .select({
        id: messages.id,
        sequence: messages.sequence,
        direction: messages.direction,
        text: messages.text,
        status: messages.status,
        failureReason: messages.failureReason,
        createdAt: messages.createdAt,
        senderName: messages.senderName,
        kind: messages.kind,
        media: messages.media,
        file: { contentType: messageMedia.contentType, byteSize: messageMedia.byteSize },
        authorUserId: messages.authorUserId,
        replyToMessageId: messages.replyToMessageId,
        ...author,
        run: {
          executionId: agentRuns.executionId,
          modelUsed: agentRuns.modelUsed,
          promptTokens: agentRuns.promptTokens,
          completionTokens: agentRuns.completionTokens,
          totalTokens: agentRuns.totalTokens,
          latencyMs: agentRuns.latencyMs,
          createdAt: agentRuns.createdAt,
        },
      })
      .from(messages)
      .leftJoin(agentRuns, eq(agentRuns.id, messages.agentRunId))
      .leftJoin(agents, eq(agents.id, agentRuns.agentId))
      .leftJoin(users, eq(users.id, messages.authorUserId))
      .leftJoin(messageMedia, eq(messageMedia.messageId, messages.id))
      .where(
        and(
          eq(messages.conversationId, conversationId),
          eq(messages.organizationId, scope.organizationId),
          page.before ? lt(messages.sequence, page.before) : undefined,
        ),
      )
      .orderBy(desc(messages.sequence))
      .limit(limit + 1),
  ])
  if (!row) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
  const hasOlder = rows.length > limit
  const shown = rows.slice(0, limit).reverse()
  return {
    ...toSummary(row),
    channel: {
      ...toSummary(row).channel,
      status: row.channelStatus,
      tokenRefused: hasDeadToken({ status: row.channelStatus, healthProblem: row.channelHealthProblem }),
      autoResumeMinutes: row.autoResumeMinutes,
    },
    lastInboundAt: row.lastInboundAt?.toISOString() ?? null,
    hasOlder,
    messages: shown.map((m) => ({
      id: m.id,
      sequence: m.sequence,
      direction: m.direction,
      text: m.text,
      status: m.status,
      failureReason: m.failureReason,
      at: m.createdAt.toISOString(),
      senderName: m.senderName,
      media: m.media && {
        kind: m.kind,
        state: m.media.state,
        reason: m.media.reason ?? null,
        fileName: m.media.fileName ?? null,
        file: m.file,
      },
      author:
        m.direction === 'inbound'
          ? { kind: 'customer' }
          : m.authorUserId
            ? { kind: 'person', name: m.authorName }
            : !m.run && !m.replyToMessageId
              ? { kind: 'external', name: m.senderName }
              : {
                  kind: 'ai',
                  agentName: m.agentName ?? m.senderName,
                  run: m.run ? { ...m.run, createdAt: m.run.createdAt.toISOString() } : null,
                },
    })),
  }
}

/** The organization's channels that have conversations' filter options: id and display name, oldest first. */
export async function listConversationChannels(scope: OrganizationScope) {
  const rows = await scope.db
    .select({
      id: channels.id,
      platformName: channels.platformName,
      channelType: channels.channelType,
      metadata: channels.metadata,
    })
    .from(channels)
    .where(eq(channels.organizationId, scope.organizationId))
    .orderBy(asc(channels.createdAt))
  return rows.map((c) => ({ id: c.id, platformName: c.platformName, name: channelDisplayName(c) }))
}
