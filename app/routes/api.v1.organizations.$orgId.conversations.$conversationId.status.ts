import { endpoints } from '~/lib/api/endpoints'
import { CONVERSATION_TEXTS } from '~/lib/conversations/conversations'
import { setConversationStatus } from '~/services/conversations/status.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.setConversationStatus, async ({ caller, params, body }) => {
    const data = await setConversationStatus(
      await scopeOf(caller, params.orgId),
      params.conversationId,
      body.status,
    )
    return {
      data,
      message: data.status === 'resolved' ? CONVERSATION_TEXTS.resolved : CONVERSATION_TEXTS.reopened,
    }
  }),
)

export const loader = route
export const action = route
