import { and, eq } from 'drizzle-orm'
import { messageMedia, messages } from '~/db/schema'
import { CONVERSATION_TEXTS } from '~/lib/conversations/conversations'
import { isUuid } from '~/lib/shared/input'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'

export type StoredFile = { contentType: string; byteSize: number; bytes: Buffer; fileName: string | null }

/**
 * A customer's file in one of the organization's conversations (docs/decisions/074), for the inbox to play or
 * show. Another organization's, another conversation's, or one not fetched: NOT_FOUND, the same for all three.
 */
export async function getMessageFile(
  scope: OrganizationScope,
  conversationId: string,
  messageId: string,
): Promise<StoredFile> {
  if (!isUuid(conversationId) || !isUuid(messageId))
    throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
  const [row] = await scope.db
    .select({
      contentType: messageMedia.contentType,
      byteSize: messageMedia.byteSize,
      bytes: messageMedia.bytes,
      media: messages.media,
    })
    .from(messageMedia)
    .innerJoin(messages, eq(messages.id, messageMedia.messageId))
    .where(
      and(
        eq(messageMedia.messageId, messageId),
        eq(messageMedia.organizationId, scope.organizationId),
        eq(messages.organizationId, scope.organizationId),
        eq(messages.conversationId, conversationId),
      ),
    )
  if (!row) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
  return {
    contentType: row.contentType,
    byteSize: row.byteSize,
    bytes: row.bytes,
    fileName: row.media?.fileName ?? null,
  }
}
