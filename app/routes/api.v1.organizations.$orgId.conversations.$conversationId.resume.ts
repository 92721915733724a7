import { endpoints } from '~/lib/api/endpoints'
import { CONVERSATION_TEXTS } from '~/lib/conversations/conversations'
import { resumeConversation } from '~/services/conversations/takeover.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.resumeConversation, async ({ caller, params }) => ({
    data: await resumeConversation(await scopeOf(caller, params.orgId), params.conversationId),
    message: CONVERSATION_TEXTS.resumed,
  })),
)

export const loader = route
export const action = route
