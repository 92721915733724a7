import { endpoints } from '~/lib/api/endpoints'
import { addMember } from '~/services/organizations/organizations.server'
import { requireOrganizationScope } from '~/services/organizations/scope.server'
import { apiRoute, handle } from '~/utils/api.server'

const route = apiRoute(
  handle(endpoints.addMember, async ({ caller, params, body }) => {
    const scope = await requireOrganizationScope({
      db: caller.db,
      userId: caller.user.id,
      organizationId: params.orgId,
    })
    return { data: await addMember(scope, body.memberId), message: 'Member added' }
  }),
)

export const loader = route
export const action = route
