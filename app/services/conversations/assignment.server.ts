import { and, eq, sql } from 'drizzle-orm'
import { conversations } from '~/db/schema'
import { CONVERSATION_TEXTS, type ViewCounts } from '~/lib/conversations/conversations'
import type { MemberOption } from '~/lib/organizations/schemas'
import { findMember, listMemberOptions } from '~/services/organizations/member-lookup.server'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'
import { ownConversation } from './takeover.server'

// Who answers a conversation (issue 33, docs/decisions/057). A person assigns it to a member or to nobody; a
// conversation that comes to need a person goes to its channel's default assignee, and a member who leaves
// has none left (both by triggers of migration 0022, so that every path that raises attention is covered).

export type Assignee = { uid: string; name: string }
export type AssigneeState = { assignee: Assignee | null }

/** The organization's members, as the assignee pickers list them (by name); `me`: the caller. */
export async function listAssignableMembers(scope: OrganizationScope): Promise<MemberOption[]> {
  const members = await listMemberOptions(scope)
  return members.map(({ uid, name, me }) => ({ uid, name, me }))
}

/**
 * The member of the scope's organization with this uid; anyone else (another organization's member, an unknown
 * uid) is refused with a 400, and nothing changes.
 */
export async function requireMember(scope: OrganizationScope, uid: string) {
  const member = await findMember(scope, uid)
  if (!member) throw new AppError('VALIDATION_ERROR', CONVERSATION_TEXTS.assigneeNotMember)
  return member
}

/** Assigns the conversation to a member of its organization (by uid), or unassigns it (null). */
export async function assignConversation(
  scope: OrganizationScope,
  conversationId: string,
  assigneeUid: string | null,
): Promise<AssigneeState> {
  const where = ownConversation(scope, conversationId)
  const member = assigneeUid === null ? null : await requireMember(scope, assigneeUid)
  const [row] = await scope.db
    .update(conversations)
    .set({ assigneeId: member?.id ?? null, assignedBy: scope.userId })
    .where(where)
    .returning({ id: conversations.id })
  if (!row) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
  return { assignee: member && { uid: member.uid, name: member.name } }
}

/**
 * The inbox's views of the open conversations, counted in one read of the status index: the caller's, the
 * unassigned, those needing a person, and all.
 */
export async function countViews(scope: OrganizationScope): Promise<ViewCounts> {
  const [counts] = await scope.db
    .select({
      mine: sql<number>`(count(*) filter (where ${conversations.assigneeId} = ${scope.userId}))::int`,
      unassigned: sql<number>`(count(*) filter (where ${conversations.assigneeId} is null))::int`,
      needs_attention: sql<number>`(count(*) filter (where ${conversations.state} = 'needs_attention'))::int`,
      all: sql<number>`count(*)::int`,
    })
    .from(conversations)
    .where(and(eq(conversations.organizationId, scope.organizationId), eq(conversations.status, 'open')))
  return counts
}
