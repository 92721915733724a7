import { asc, eq } from 'drizzle-orm'
import { conversationLabels, conversations } from '~/db/schema'
import { CONVERSATION_TEXTS } from '~/lib/conversations/conversations'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'
import { ownConversation } from './takeover.server'

// A conversation's labels (issue 33, docs/decisions/060): a member sets them all at once; the list filters by
// one. Their own table, so that the AI's writes of a conversation never touch them.

/**
 * Sets the conversation's labels to exactly these (already checked and deduplicated by labelsSchema); another
 * organization's conversation is not found, and nothing changes.
 */
export async function setConversationLabels(
  scope: OrganizationScope,
  conversationId: string,
  labels: string[],
): Promise<{ labels: string[] }> {
  const where = ownConversation(scope, conversationId)
  await scope.db.transaction(async (tx) => {
    // Locks the conversation's row: two saves at once end as one of them, whole.
    const [row] = await tx.select({ id: conversations.id }).from(conversations).where(where).for('update')
    if (!row) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
    await tx.delete(conversationLabels).where(eq(conversationLabels.conversationId, conversationId))
    if (labels.length > 0) {
      await tx
        .insert(conversationLabels)
        .values(labels.map((label) => ({ organizationId: scope.organizationId, conversationId, label })))
    }
  })
  return { labels }
}

/** The labels the organization uses, for the list's filter (the index of labels by organization). */
export async function listOrganizationLabels(scope: OrganizationScope): Promise<string[]> {
  const rows = await scope.db
    .selectDistinct({ label: conversationLabels.label })
    .from(conversationLabels)
    .where(eq(conversationLabels.organizationId, scope.organizationId))
    .orderBy(asc(conversationLabels.label))
    .limit(500)
  return rows.map((row) => row.label)
}
