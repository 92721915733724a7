import { endpoints } from '~/lib/api/endpoints'
import { CONVERSATION_TEXTS } from '~/lib/conversations/conversations'
import { assignConversation } from '~/services/conversations/assignment.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.assignConversation, async ({ caller, params, body }) => {
    const data = await assignConversation(
      await scopeOf(caller, params.orgId),
      params.conversationId,
      body.assigneeUid,
    )
    return {
      data,
      message: data.assignee
        ? CONVERSATION_TEXTS.assigned(data.assignee.name)
        : CONVERSATION_TEXTS.unassigned,
    }
  }),
)

export const loader = route
export const action = route
