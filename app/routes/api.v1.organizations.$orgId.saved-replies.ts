import { endpoints } from '~/lib/api/endpoints'
import { SAVED_REPLY_TEXTS } from '~/lib/conversations/saved-replies'
import { createSavedReply, listSavedReplies } from '~/services/conversations/saved-replies.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.listSavedReplies, async ({ caller, params }) => ({
    data: await listSavedReplies(await scopeOf(caller, params.orgId)),
  })),
  handle(endpoints.createSavedReply, async ({ caller, params, body }) => ({
    data: await createSavedReply(await scopeOf(caller, params.orgId), body),
    message: SAVED_REPLY_TEXTS.created,
  })),
)

export const loader = route
export const action = route
