import { endpoints } from '~/lib/api/endpoints'
import { CONVERSATION_TEXTS } from '~/lib/conversations/conversations'
import { sendPersonReply } from '~/services/conversations/person-reply.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'
import { conversationDeps } from '~/runtime/channel-deps.server'

const route = apiRoute(
  handle(endpoints.sendConversationMessage, async ({ caller, params, body, headers }) => {
    const reply = await sendPersonReply(
      await scopeOf(caller, params.orgId),
      conversationDeps(caller.runtime),
      {
        conversationId: params.conversationId,
        text: body.text,
        clientKey: headers['Idempotency-Key'],
      },
    )
    return reply.sentNow
      ? { data: reply, message: CONVERSATION_TEXTS.sent }
      : { data: reply, message: CONVERSATION_TEXTS.alreadySent, status: 200 }
  }),
)

export const loader = route
export const action = route
