import { endpoints } from '~/lib/api/endpoints'
import { SAVED_REPLY_TEXTS } from '~/lib/conversations/saved-replies'
import { deleteSavedReply, updateSavedReply } from '~/services/conversations/saved-replies.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.updateSavedReply, async ({ caller, params, body }) => ({
    data: await updateSavedReply(await scopeOf(caller, params.orgId), params.savedReplyId, body),
    message: SAVED_REPLY_TEXTS.updated,
  })),
  handle(endpoints.deleteSavedReply, async ({ caller, params }) => {
    await deleteSavedReply(await scopeOf(caller, params.orgId), params.savedReplyId)
    return { data: { id: params.savedReplyId }, message: SAVED_REPLY_TEXTS.deleted }
  }),
)

export const loader = route
export const action = route
