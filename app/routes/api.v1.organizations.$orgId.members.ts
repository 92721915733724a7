import { endpoints } from '~/lib/api/endpoints'
import { addMember } from '~/services/organizations/organizations.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'
import { invitationMessage } from '~/lib/organizations/schemas'

/** The spec's "add member" call: since membership needs consent, it invites the user, who then accepts. */
const route = apiRoute(
  handle(endpoints.addMember, async ({ caller, params, body }) => {
    const { invitation, created } = await addMember(await scopeOf(caller, params.orgId), body.memberId)
    return { data: invitation, message: invitationMessage(created) }
  }),
)

export const loader = route
export const action = route
