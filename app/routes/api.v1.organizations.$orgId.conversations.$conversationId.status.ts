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
      body.snoozeMinutes,
    )
    const messages = {
      open: CONVERSATION_TEXTS.reopened,
      resolved: CONVERSATION_TEXTS.resolved,
      snoozed: CONVERSATION_TEXTS.snoozed,
    }
    return { data, message: messages[data.status] }
  }),
)

export const loader = route
export const action = route
