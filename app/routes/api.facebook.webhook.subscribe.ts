import { endpoints } from '~/lib/api/endpoints'
import { toChannelView } from '~/services/channels/channels.server'
import { subscribePageWebhook } from '~/services/channels/facebook-api.server'
import { apiRoute, handle, headerScope } from '~/http/api.server'
import { platformDeps } from '~/runtime/channel-deps.server'

export const action = apiRoute(
  handle(endpoints.facebookWebhookSubscribe, async ({ caller, request, body }) => {
    const deps = platformDeps(caller.runtime)
    const channel = await subscribePageWebhook(await headerScope(caller, request), body, deps)
    return { data: toChannelView(channel, deps), message: 'Page subscribed to webhooks' }
  }),
)
export const loader = action
