import { endpoints } from '~/lib/api/endpoints'
import { leaveOrganization } from '~/services/organizations/organizations.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.leaveOrganization, async ({ caller, params }) => {
    await leaveOrganization(await scopeOf(caller, params.orgId))
    return { data: null, message: 'You left the organization' }
  }),
)

export const loader = route
export const action = route
