import type { endpoints } from '~/lib/api/endpoints'
import { toChannelView } from '~/services/channels/channels.server'
import { switchPlatformWebhook } from '~/services/channels/webhook.server'
import { apiRoute, bodyScope, handle } from '~/http/api.server'
import { platformDeps } from '~/runtime/channel-deps.server'

/** `POST /webhooks/{platform}/subscribe` and `DELETE .../unsubscribe`: one switch, on or off. */
export function webhookSwitchRoute(
  endpoint: (typeof endpoints)['subscribeWebhook' | 'unsubscribeWebhook'],
  subscribed: boolean,
  message: string,
) {
  return apiRoute(
    handle(endpoint, async ({ caller, request, params, body }) => {
      const scope = await bodyScope(caller, request, body.organizationId)
      const deps = platformDeps(caller.runtime)
      const channel = await switchPlatformWebhook(scope, params.platform, body.channelId, subscribed, deps)
      return { data: toChannelView(channel, deps), message }
    }),
  )
}
