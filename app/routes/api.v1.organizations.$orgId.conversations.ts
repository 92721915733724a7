import { endpoints } from '~/lib/api/endpoints'
import { listConversations } from '~/services/conversations/inbox.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.listConversations, async ({ caller, params, query }) => {
    const { items, total, page, pageSize } = await listConversations(
      await scopeOf(caller, params.orgId),
      query,
    )
    return { data: items, pagination: { page, pageSize, total } }
  }),
)

export const loader = route
export const action = route
