import { endpoints } from '~/lib/api/endpoints'
import { sendPageMessage } from '~/services/channels/facebook-api.server'
import { apiRoute, handle, headerScope } from '~/http/api.server'
import { platformDeps } from '~/runtime/channel-deps.server'

export const action = apiRoute(
  handle(endpoints.facebookSendMessage, async ({ caller, request, body }) => {
    const sent = await sendPageMessage(await headerScope(caller, request), body, platformDeps(caller.runtime))
    return { data: sent, message: 'Message sent' }
  }),
)
export const loader = action
