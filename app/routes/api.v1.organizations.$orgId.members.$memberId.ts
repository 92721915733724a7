import { endpoints } from '~/lib/api/endpoints'
import { removeMember } from '~/services/organizations/organizations.server'
import { requireOrganizationScope } from '~/services/organizations/scope.server'
import { apiRoute, handle } from '~/utils/api.server'

const route = apiRoute(
  handle(endpoints.removeMember, async ({ caller, params }) => {
    const scope = await requireOrganizationScope({
      db: caller.db,
      userId: caller.user.id,
      organizationId: params.orgId,
    })
    return { data: await removeMember(scope, params.memberId), message: 'Member removed' }
  }),
)

export const loader = route
export const action = route
