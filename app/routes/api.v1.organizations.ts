import { endpoints } from '~/lib/api/endpoints'
import { createOrganization, listOrganizations } from '~/services/organizations/organizations.server'
import { apiRoute, handle } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.listOrganizations, async ({ caller }) => ({
    data: await listOrganizations({ db: caller.db, userId: caller.user.id }),
  })),
  handle(endpoints.createOrganization, async ({ caller, body }) => ({
    data: await createOrganization({ db: caller.db, userId: caller.user.id, name: body.name }),
    message: 'Organization created',
  })),
)

export const loader = route
export const action = route
