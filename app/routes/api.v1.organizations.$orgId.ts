import { endpoints } from '~/lib/api/endpoints'
import {
  deleteOrganization,
  getOrganization,
  updateOrganization,
} from '~/services/organizations/organizations.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.getOrganization, async ({ caller, params }) => ({
    data: await getOrganization(await scopeOf(caller, params.orgId)),
  })),
  handle(endpoints.updateOrganization, async ({ caller, params, body }) => ({
    data: await updateOrganization(await scopeOf(caller, params.orgId), body),
    message: 'Organization updated',
  })),
  handle(endpoints.deleteOrganization, async ({ caller, params }) => {
    await deleteOrganization(await scopeOf(caller, params.orgId))
    return { data: null, message: 'Organization deleted' }
  }),
)

export const loader = route
export const action = route
