import { endpoints } from '~/lib/api/endpoints'
import { acceptInvitation } from '~/services/organizations/invitations.server'
import { apiRoute, handle } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.acceptInvitation, async ({ caller, params }) => {
    const organization = await acceptInvitation({
      db: caller.db,
      identity: caller.runtime.identity,
      userId: caller.user.id,
      invitationId: params.invitationId,
    })
    return { data: organization, message: `You joined ${organization.name}` }
  }),
)

export const loader = route
export const action = route
