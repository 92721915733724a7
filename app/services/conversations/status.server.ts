import { and, eq, gt, lte, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { conversations, organizations } from '~/db/schema'
import { CONVERSATION_TEXTS, type ConversationStatus } from '~/lib/conversations/conversations'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'
import { ownConversation } from './takeover.server'

export type StatusState = { status: ConversationStatus; resolvedAt: Date | null; snoozedUntil: Date | null }

/** What a status change writes: resolving clears the need of a person (a person looked at it). */
function changeOf(scope: OrganizationScope, status: ConversationStatus, snoozeMinutes?: number) {
  if (status === 'resolved') {
    return {
      status,
      resolvedAt: sql`statement_timestamp()`,
      resolvedBy: scope.userId,
      snoozedUntil: null,
      attentionReason: null,
      attentionAt: null,
    }
  }
  if (status === 'snoozed') {
    if (!snoozeMinutes) throw new AppError('VALIDATION_ERROR', CONVERSATION_TEXTS.snoozeInvalid)
    return { status, snoozedUntil: sql`statement_timestamp() + make_interval(mins => ${snoozeMinutes})` }
  }
  return { status, snoozedUntil: null }
}

/**
 * A person resolves a conversation, snoozes it for some minutes, or opens it again. None of them touches the
 * AI: it keeps answering, and the customer's next message opens the conversation again (the ingest's upsert and
 * the summary trigger); a snooze also ends by itself at its time (wakeSnoozedConversations).
 */
export async function setConversationStatus(
  scope: OrganizationScope,
  conversationId: string,
  status: ConversationStatus,
  snoozeMinutes?: number,
): Promise<StatusState> {
  const [row] = await scope.db
    .update(conversations)
    .set(changeOf(scope, status, snoozeMinutes))
    .where(ownConversation(scope, conversationId))
    .returning({
      status: conversations.status,
      resolvedAt: conversations.resolvedAt,
      snoozedUntil: conversations.snoozedUntil,
    })
  if (!row) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
  return row
}

/** The minute sweep: snoozed conversations whose time has come are open again. Returns how many. */
export async function wakeSnoozedConversations(db: Database, now = new Date()): Promise<number> {
  const rows = await db
    .update(conversations)
    .set({ status: 'open', snoozedUntil: null })
    .where(and(eq(conversations.status, 'snoozed'), lte(conversations.snoozedUntil, now)))
    .returning({ id: conversations.id })
  return rows.length
}

/**
 * The minute sweep: the AI resolves the open conversations it answered alone (no person needed, none wrote)
 * whose customer has been quiet since its answer for the organization's period (0: never), at most `limit` a
 * time. They count as the AI's resolutions on the dashboard. Returns how many.
 */
export async function resolveQuietConversations(
  db: Database,
  now = new Date(),
  limit = 1000,
): Promise<number> {
  const due = db
    .select({ id: conversations.id })
    .from(conversations)
    .innerJoin(organizations, eq(organizations.id, conversations.organizationId))
    .where(
      and(
        gt(organizations.autoResolveHours, 0),
        eq(conversations.status, 'open'),
        eq(conversations.state, 'ai'),
        eq(conversations.neededPerson, false),
        eq(conversations.lastMessageDirection, 'outbound'),
        sql`${conversations.lastMessageAt} < ${now}::timestamptz - make_interval(hours => ${organizations.autoResolveHours})`,
      ),
    )
    .limit(limit)
  const rows = await db
    .update(conversations)
    .set({ status: 'resolved', resolvedAt: now, resolvedBy: null })
    .where(and(sql`${conversations.id} in ${due}`, eq(conversations.status, 'open')))
    .returning({ id: conversations.id })
  return rows.length
}
