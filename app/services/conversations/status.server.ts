import { sql } from 'drizzle-orm'
import { conversations } from '~/db/schema'
import { CONVERSATION_TEXTS, type ConversationStatus } from '~/lib/conversations/conversations'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'
import { ownConversation } from './takeover.server'

export type StatusState = { status: ConversationStatus; resolvedAt: Date | null }

/**
 * A person resolves a conversation, or opens it again. Resolving clears its need of a person but does not touch
 * the AI: it keeps answering, and the customer's next message opens the conversation again (the ingest's upsert
 * and the summary trigger).
 */
export async function setConversationStatus(
  scope: OrganizationScope,
  conversationId: string,
  status: ConversationStatus,
): Promise<StatusState> {
  const resolved = status === 'resolved'
  const [row] = await scope.db
    .update(conversations)
    .set(
      resolved
        ? {
            status,
            resolvedAt: sql`statement_timestamp()`,
            resolvedBy: scope.userId,
            // A person looked at it: it no longer waits for one.
            attentionReason: null,
            attentionAt: null,
          }
        : { status },
    )
    .where(ownConversation(scope, conversationId))
    .returning({ status: conversations.status, resolvedAt: conversations.resolvedAt })
  if (!row) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
  return row
}
