import { endpoints } from '~/lib/api/endpoints'
import { listMyInvitations } from '~/services/organizations/invitations.server'
import { apiRoute, handle } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.listMyInvitations, async ({ caller }) => ({
    data: await listMyInvitations({ db: caller.db, userId: caller.user.id }),
  })),
)

export const loader = route
export const action = route
