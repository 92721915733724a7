import { endpoints } from '~/lib/api/endpoints'
import { removeMember } from '~/services/organizations/organizations.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.removeMember, async ({ caller, params }) => {
    const scope = await scopeOf(caller, params.orgId)
    return { data: await removeMember(scope, params.memberId), message: 'Member removed' }
  }),
)

export const loader = route
export const action = route
