import { endpoints } from '~/lib/api/endpoints'
import { getConversation } from '~/services/conversations/inbox.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.getConversation, async ({ caller, params, query }) => ({
    data: await getConversation(await scopeOf(caller, params.orgId), params.conversationId, query),
  })),
)

export const loader = route
export const action = route
