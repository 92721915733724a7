import { endpoints } from '~/lib/api/endpoints'
import { markNotificationsRead } from '~/services/notifications/bell.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.markNotificationsRead, async ({ caller, params, body }) => ({
    data: await markNotificationsRead(await scopeOf(caller, params.orgId), body.ids ?? 'all'),
  })),
)

export const loader = route
export const action = route
