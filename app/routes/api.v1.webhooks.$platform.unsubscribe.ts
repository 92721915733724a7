import { endpoints } from '~/lib/api/endpoints'
import { toChannelView } from '~/services/channels/channels.server'
import { switchPlatformWebhook } from '~/services/channels/webhook.server'
import { apiRoute, bodyScope, handle } from '~/utils/api.server'
import { platformDeps } from '~/utils/channel-deps.server'

export const action = apiRoute(
  handle(endpoints.unsubscribeWebhook, async ({ caller, request, params, body }) => {
    const scope = await bodyScope(caller, request, body.organizationId)
    const deps = platformDeps(caller.runtime)
    const channel = await switchPlatformWebhook(scope, params.platform, body.channelId, false, deps)
    return { data: toChannelView(channel, deps), message: 'Webhook unsubscribed' }
  }),
)
export const loader = action
