import { eq } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { organizations } from '~/db/schema'
import { wordGroupsSchema } from '~/lib/knowledge/customer-words'
import type { OrganizationScope } from '~/services/organizations/scope.server'

// "Words your customers use" (issue 36, docs/decisions/073): stored on the organization, read by every search.

/** The organization's groups of words (none when it has written none). */
export async function customerWordsOf(db: Database, organizationId: string): Promise<string[][]> {
  const [row] = await db
    .select({ words: organizations.customerWords })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
  return row?.words ?? []
}

export const getCustomerWords = (scope: OrganizationScope) => customerWordsOf(scope.db, scope.organizationId)

/** Replaces the organization's groups (checked again here: a service is called by more than the form). */
export async function saveCustomerWords(scope: OrganizationScope, groups: string[][]): Promise<string[][]> {
  const words = wordGroupsSchema.parse(groups)
  await scope.db
    .update(organizations)
    .set({ customerWords: words, updatedAt: new Date() })
    .where(eq(organizations.id, scope.organizationId))
  return words
}
