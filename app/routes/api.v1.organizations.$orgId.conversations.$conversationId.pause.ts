import { endpoints } from '~/lib/api/endpoints'
import { CONVERSATION_TEXTS } from '~/lib/conversations/conversations'
import { pauseConversation } from '~/services/conversations/takeover.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'
import { conversationDeps } from '~/runtime/channel-deps.server'

const route = apiRoute(
  handle(endpoints.pauseConversation, async ({ caller, params, body }) => ({
    data: await pauseConversation(
      await scopeOf(caller, params.orgId),
      params.conversationId,
      body,
      conversationDeps(caller.runtime).scheduleResume,
    ),
    message: CONVERSATION_TEXTS.paused,
  })),
)

export const loader = route
export const action = route
