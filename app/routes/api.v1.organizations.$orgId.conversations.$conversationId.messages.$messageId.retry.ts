import { endpoints } from '~/lib/api/endpoints'
import { CONVERSATION_TEXTS } from '~/lib/conversations/conversations'
import { retryMessage } from '~/services/conversations/person-reply.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'
import { conversationDeps } from '~/runtime/channel-deps.server'

const route = apiRoute(
  handle(endpoints.retryConversationMessage, async ({ caller, params }) => {
    const result = await retryMessage(
      await scopeOf(caller, params.orgId),
      conversationDeps(caller.runtime),
      params.messageId,
      params.conversationId,
    )
    return {
      data: result,
      message: result.requeued ? CONVERSATION_TEXTS.requeued : CONVERSATION_TEXTS.sentAgain,
    }
  }),
)

export const loader = route
export const action = route
