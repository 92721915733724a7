import { endpoints } from '~/lib/api/endpoints'
import { awaitingEmailText } from '~/lib/organizations/schemas'
import { listMyInvitations } from '~/services/organizations/invitations.server'
import { apiRoute, handle } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.listMyInvitations, async ({ caller }) => {
    const { invitations, awaitingEmail } = await listMyInvitations({
      db: caller.db,
      identity: caller.runtime.identity,
      userId: caller.user.id,
    })
    return { data: invitations, message: awaitingEmail ? awaitingEmailText(awaitingEmail) : undefined }
  }),
)

export const loader = route
export const action = route
