import { endpoints } from '~/lib/api/endpoints'
import { declineInvitation } from '~/services/organizations/invitations.server'
import { apiRoute, handle } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.declineInvitation, async ({ caller, params }) => {
    await declineInvitation({
      db: caller.db,
      identity: caller.runtime.identity,
      userId: caller.user.id,
      invitationId: params.invitationId,
    })
    return { data: null, message: 'Invitation declined' }
  }),
)

export const loader = route
export const action = route
