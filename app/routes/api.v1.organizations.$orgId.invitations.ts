import { endpoints } from '~/lib/api/endpoints'
import { inviteMember, listInvitations } from '~/services/organizations/invitations.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'
import { invitationMessage } from '~/lib/organizations/schemas'

const route = apiRoute(
  handle(endpoints.listInvitations, async ({ caller, params }) => ({
    data: await listInvitations(await scopeOf(caller, params.orgId)),
  })),
  handle(endpoints.createInvitation, async ({ caller, params, body }) => {
    const { invitation, created } = await inviteMember(await scopeOf(caller, params.orgId), body)
    return { data: invitation, message: invitationMessage(created) }
  }),
)

export const loader = route
export const action = route
