import { endpoints } from '~/lib/api/endpoints'
import { CONVERSATION_TEXTS } from '~/lib/conversations/conversations'
import { setConversationLabels } from '~/services/conversations/labels.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.setConversationLabels, async ({ caller, params, body }) => ({
    data: await setConversationLabels(
      await scopeOf(caller, params.orgId),
      params.conversationId,
      body.labels,
    ),
    message: CONVERSATION_TEXTS.labelsSaved,
  })),
)

export const loader = route
export const action = route
