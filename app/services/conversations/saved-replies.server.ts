import { and, asc, count, eq } from 'drizzle-orm'
import { isUniqueViolation } from '~/db/errors.server'
import { savedReplies } from '~/db/schema'
import {
  MAX_SAVED_REPLIES,
  SAVED_REPLY_TEXTS,
  type SavedReplyInput,
  type SavedReplyItem,
} from '~/lib/conversations/saved-replies'
import { isUuid } from '~/lib/shared/input'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'

// An organization's saved replies (issue 33): any member lists, adds, changes and deletes them; the composer
// inserts them by shortcut. Another organization's reply is not found.

const columns = { id: savedReplies.id, shortcut: savedReplies.shortcut, text: savedReplies.text }

export async function listSavedReplies(scope: OrganizationScope): Promise<SavedReplyItem[]> {
  return scope.db
    .select(columns)
    .from(savedReplies)
    .where(eq(savedReplies.organizationId, scope.organizationId))
    .orderBy(asc(savedReplies.shortcut))
    .limit(MAX_SAVED_REPLIES)
}

/** A shortcut used twice in one organization is refused with its own message (the unique index decides). */
async function withShortcutCheck<T>(shortcut: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('VALIDATION_ERROR', SAVED_REPLY_TEXTS.shortcutTaken(shortcut))
    throw error
  }
}

export async function createSavedReply(
  scope: OrganizationScope,
  input: SavedReplyInput,
): Promise<SavedReplyItem> {
  const [{ n }] = await scope.db
    .select({ n: count() })
    .from(savedReplies)
    .where(eq(savedReplies.organizationId, scope.organizationId))
  if (n >= MAX_SAVED_REPLIES) throw new AppError('VALIDATION_ERROR', SAVED_REPLY_TEXTS.tooMany)
  const [row] = await withShortcutCheck(input.shortcut, () =>
    scope.db
      .insert(savedReplies)
      .values({ organizationId: scope.organizationId, createdBy: scope.userId, ...input })
      .returning(columns),
  )
  return row
}

function own(scope: OrganizationScope, id: string) {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', SAVED_REPLY_TEXTS.notFound)
  return and(eq(savedReplies.id, id), eq(savedReplies.organizationId, scope.organizationId))
}

export async function updateSavedReply(
  scope: OrganizationScope,
  id: string,
  input: SavedReplyInput,
): Promise<SavedReplyItem> {
  const where = own(scope, id)
  const [row] = await withShortcutCheck(input.shortcut, () =>
    scope.db
      .update(savedReplies)
      .set({ ...input, updatedAt: new Date() })
      .where(where)
      .returning(columns),
  )
  if (!row) throw new AppError('NOT_FOUND', SAVED_REPLY_TEXTS.notFound)
  return row
}

export async function deleteSavedReply(scope: OrganizationScope, id: string): Promise<void> {
  const rows = await scope.db.delete(savedReplies).where(own(scope, id)).returning({ id: savedReplies.id })
  if (rows.length === 0) throw new AppError('NOT_FOUND', SAVED_REPLY_TEXTS.notFound)
}
