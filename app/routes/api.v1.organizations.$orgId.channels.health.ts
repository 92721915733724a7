import { endpoints } from '~/lib/api/endpoints'
import { listChannelsHealth } from '~/services/channels/health.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.listChannelsHealth, async ({ caller, params }) => ({
    data: await listChannelsHealth(await scopeOf(caller, params.orgId)),
  })),
)

export const loader = route
export const action = route
