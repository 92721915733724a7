import { endpoints } from '~/lib/api/endpoints'
import { addMember } from '~/services/organizations/organizations.server'
import { apiRoute, handle, scopeOf } from '~/utils/api.server'

const route = apiRoute(
  handle(endpoints.addMember, async ({ caller, params, body }) => {
    const scope = await scopeOf(caller, params.orgId)
    return { data: await addMember(scope, body.memberId), message: 'Member added' }
  }),
)

export const loader = route
export const action = route
