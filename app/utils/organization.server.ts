import { resolveCurrentOrganization } from '~/services/organizations/organizations.server'
import { requireOrganizationScope, type OrganizationScope } from '~/services/organizations/scope.server'
import { requireSignedIn } from './auth.server'
import { getRuntime } from './runtime.server'

export const NO_ORGANIZATION_SELECTED = 'No organization selected'

/**
 * The signed-in user's scope in the session's current organization, for page loaders and actions; undefined
 * while the user has no organization (the page then says "No organization selected").
 */
export async function getCurrentScope(request: Request): Promise<OrganizationScope | undefined> {
  const { user, session } = await requireSignedIn(request)
  const { database } = await getRuntime()
  const { current } = await resolveCurrentOrganization({
    db: database.db,
    userId: user.id,
    sessionId: session.id,
    storedId: session.currentOrganizationId,
  })
  if (!current) return undefined
  return requireOrganizationScope({ db: database.db, userId: user.id, organizationId: current.id })
}
