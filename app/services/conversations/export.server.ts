import { and, asc, desc, eq, gt, sql } from 'drizzle-orm'
import { agentRuns, agents, channels, conversations, messages, users } from '~/db/schema'
import {
  CONVERSATION_STATE_LABELS,
  CONVERSATION_STATUS_LABELS,
  CONVERSATION_TEXTS,
  type ConversationFilters,
} from '~/lib/conversations/conversations'
import { csvLine } from '~/lib/shared/csv'
import { isUuid } from '~/lib/shared/input'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'
import {
  assigneeJoin,
  assigneeUser,
  author,
  listConditions,
  needsAttentionFirst,
  summaryColumns,
  toSummary,
} from './inbox.server'

// Exports are read a batch at a time, in the list's own order and index (keyset, not offset), and written out as
// they are read: an organization's 100,000 conversations never sit in memory at once.

export const EXPORT_BATCH_SIZE = 1000

const CSV_HEADER = [
  'Customer',
  'Customer ID',
  'Channel',
  'Platform',
  'Status',
  'State',
  'Assignee',
  'Labels',
  'Last message at (UTC)',
  'Last message from',
  'Last message',
  'Conversation ID',
] as const

const attention = sql<boolean>`(${conversations.state} = 'needs_attention')`

/** The organization's conversations under the list's filters, as CSV lines, the header first. */
export async function* conversationsCsv(
  scope: OrganizationScope,
  filters: ConversationFilters,
  batchSize = EXPORT_BATCH_SIZE,
): AsyncGenerator<string> {
  yield csvLine(CSV_HEADER)
  let after: { attention: boolean; at: string; id: string } | undefined
  for (;;) {
    const rows = await scope.db
      .select({ ...summaryColumns, attention, at: sql<string>`${conversations.lastMessageAt}::text` })
      .from(conversations)
      .innerJoin(channels, eq(channels.id, conversations.channelId))
      .leftJoin(assigneeUser, assigneeJoin)
      .where(
        and(
          listConditions(scope, filters),
          after
            ? sql`(${attention}, ${conversations.lastMessageAt}, ${conversations.id}) < (${after.attention}, ${after.at}::timestamptz, ${after.id}::uuid)`
            : undefined,
        ),
      )
      .orderBy(needsAttentionFirst, desc(conversations.lastMessageAt), desc(conversations.id))
      .limit(batchSize)
    let out = ''
    for (const row of rows) {
      const c = toSummary(row)
      out += csvLine([
        c.customer.name,
        c.customer.platformId,
        c.channel.name,
        c.channel.platformName,
        CONVERSATION_STATUS_LABELS[c.status],
        CONVERSATION_STATE_LABELS[c.state],
        c.assignee?.name ?? null,
        c.labels.join(', '),
        c.lastMessage.at,
        c.lastMessage.direction === 'inbound' ? 'Customer' : c.lastMessage.direction ? 'Us' : null,
        c.lastMessage.text,
        c.id,
      ])
    }
    if (out) yield out
    const last = rows.at(-1)
    if (!last || rows.length < batchSize) return
    after = { attention: last.attention, at: last.at, id: last.id }
  }
}

/**
 * One conversation's messages as plain text, oldest first, a line each: when (UTC), who, what. The first read
 * says whether the conversation is the organization's (404 before anything is written).
 */
export async function conversationTranscript(
  scope: OrganizationScope,
  conversationId: string,
  batchSize = EXPORT_BATCH_SIZE,
): Promise<{ customer: string; lines: AsyncGenerator<string> }> {
  if (!isUuid(conversationId)) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
  const [conversation] = await scope.db
    .select({ name: conversations.customerName, chat: conversations.platformChatId })
    .from(conversations)
    .where(and(eq(conversations.id, conversationId), eq(conversations.organizationId, scope.organizationId)))
  if (!conversation) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
  const customer = conversation.name ?? conversation.chat
  return { customer, lines: transcriptLines(scope, conversationId, customer, batchSize) }
}

async function* transcriptLines(
  scope: OrganizationScope,
  conversationId: string,
  customer: string,
  batchSize: number,
): AsyncGenerator<string> {
  let after = 0
  for (;;) {
    const rows = await scope.db
      .select({
        sequence: messages.sequence,
        direction: messages.direction,
        text: messages.text,
        at: messages.createdAt,
        ...author,
        personId: messages.authorUserId,
      })
      .from(messages)
      .leftJoin(agentRuns, eq(agentRuns.id, messages.agentRunId))
      .leftJoin(agents, eq(agents.id, agentRuns.agentId))
      .leftJoin(users, eq(users.id, messages.authorUserId))
      .where(
        and(
          eq(messages.conversationId, conversationId),
          eq(messages.organizationId, scope.organizationId),
          gt(messages.sequence, after),
        ),
      )
      .orderBy(asc(messages.sequence))
      .limit(batchSize)
    let out = ''
    for (const m of rows) {
      const who =
        m.direction === 'inbound'
          ? customer
          : m.personId
            ? (m.authorName ?? 'A person')
            : m.agentName
              ? `AI (${m.agentName})`
              : 'Us'
      const when = m.at.toISOString().slice(0, 16).replace('T', ' ')
      out += `[${when}] ${who}: ${(m.text ?? '').replaceAll('\n', '\n    ')}\n`
    }
    if (out) yield out
    const last = rows.at(-1)
    if (!last || rows.length < batchSize) return
    after = last.sequence
  }
}
