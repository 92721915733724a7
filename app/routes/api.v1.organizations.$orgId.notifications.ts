import { endpoints } from '~/lib/api/endpoints'
import { listNotifications } from '~/services/notifications/bell.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.listNotifications, async ({ caller, params, query }) => ({
    data: await listNotifications(await scopeOf(caller, params.orgId), {
      unreadOnly: query.unread === 'true',
    }),
  })),
)

export const loader = route
export const action = route
