import { and, eq, isNotNull, lte, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Database } from '~/db/client.server'
import { conversations } from '~/db/schema'
import { CONVERSATION_TEXTS, type pauseStateSchema } from '~/lib/conversations/conversations'
import { isUuid } from '~/lib/shared/input'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'

// Taking over from the AI and handing back: a paused conversation's messages are stored but not answered, and
// an answer the model was still writing is not sent (reply.server). The hand-back is a job at the set time
// (jobs/conversation-resume), with a sweep every minute behind it.

/** Sends the hand-back job of a conversation for the time it is due (pg-boss's `startAfter`). */
export type ResumeScheduler = (conversationId: string, at: Date) => Promise<void>

export type PauseState = z.output<typeof pauseStateSchema>

type Db = Database | Parameters<Parameters<Database['transaction']>[0]>[0]

const minutesFromNow = (minutes: number) => sql`statement_timestamp() + make_interval(mins => ${minutes})`

/**
 * "Pause AI" by a person: until resumed (no minutes, or 0), or for the given minutes. Clears nothing else: a
 * conversation that needs attention still does.
 */
export async function pauseConversation(
  scope: OrganizationScope,
  conversationId: string,
  { minutes }: { minutes?: number },
  schedule: ResumeScheduler,
): Promise<PauseState> {
  const until = minutes ? minutesFromNow(minutes) : null
  const [row] = await scope.db
    .update(conversations)
    .set({
      aiPausedAt: sql`coalesce(${conversations.aiPausedAt}, statement_timestamp())`,
      aiPausedUntil: until,
      aiPausedBy: scope.userId,
    })
    .where(ownConversation(scope, conversationId))
    .returning({ aiPausedAt: conversations.aiPausedAt, aiPausedUntil: conversations.aiPausedUntil })
  if (!row) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
  if (row.aiPausedUntil) await schedule(conversationId, row.aiPausedUntil)
  return row
}

/** "Resume AI": the AI answers the next message; whatever asked for a person is taken as seen. */
export async function resumeConversation(
  scope: OrganizationScope,
  conversationId: string,
): Promise<PauseState> {
  const [row] = await scope.db
    .update(conversations)
    .set({ ...RESUMED, attentionReason: null, attentionAt: null })
    .where(ownConversation(scope, conversationId))
    .returning({ aiPausedAt: conversations.aiPausedAt, aiPausedUntil: conversations.aiPausedUntil })
  if (!row) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
  return row
}

/**
 * A person answered (from the composer, or on the platform itself): the AI pauses by itself, and hands back
 * `autoResumeMinutes` after this reply (0: stays paused until resumed). A pause a person set without an end
 * keeps having none. What asked for a person is taken as seen. Runs in the caller's transaction; returns when
 * the AI answers again, if it will by itself.
 */
export async function pauseForPersonReply(
  db: Db,
  conversationId: string,
  { userId, autoResumeMinutes }: { userId: string | null; autoResumeMinutes: number },
): Promise<Date | null> {
  const handBack = autoResumeMinutes > 0 ? minutesFromNow(autoResumeMinutes) : null
  const [row] = await db
    .update(conversations)
    .set({
      aiPausedAt: sql`coalesce(${conversations.aiPausedAt}, statement_timestamp())`,
      aiPausedUntil: handBack
        ? sql`case when ${conversations.aiPausedAt} is not null and ${conversations.aiPausedUntil} is null
            then null else ${handBack} end`
        : null,
      aiPausedBy: userId,
      attentionReason: null,
      attentionAt: null,
      neededPerson: true,
    })
    .where(eq(conversations.id, conversationId))
    .returning({ aiPausedUntil: conversations.aiPausedUntil })
  return row?.aiPausedUntil ?? null
}

const RESUMED = { aiPausedAt: null, aiPausedUntil: null, aiPausedBy: null }

/**
 * The hand-back: the conversation (or, without one, every conversation) whose pause has run out answers with
 * the AI again. A pause extended or ended meanwhile is left as it is. Returns the conversations resumed.
 */
export async function resumeDueConversations(db: Database, conversationId?: string): Promise<string[]> {
  const rows = await db
    .update(conversations)
    .set(RESUMED)
    .where(
      and(
        isNotNull(conversations.aiPausedUntil),
        lte(conversations.aiPausedUntil, sql`statement_timestamp()`),
        conversationId ? eq(conversations.id, conversationId) : undefined,
      ),
    )
    .returning({ id: conversations.id })
  return rows.map((r) => r.id)
}

/** The organization's conversation with this id (404 for any other, or for an id that is none). */
export function ownConversation(scope: OrganizationScope, conversationId: string) {
  if (!isUuid(conversationId)) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
  return and(eq(conversations.id, conversationId), eq(conversations.organizationId, scope.organizationId))
}
