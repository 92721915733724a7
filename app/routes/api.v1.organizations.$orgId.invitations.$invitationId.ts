import { endpoints } from '~/lib/api/endpoints'
import { revokeInvitation } from '~/services/organizations/invitations.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.revokeInvitation, async ({ caller, params }) => {
    await revokeInvitation(await scopeOf(caller, params.orgId), params.invitationId)
    return { data: null, message: 'Invitation revoked' }
  }),
)

export const loader = route
export const action = route
