import { endpoints } from '~/lib/api/endpoints'
import { toChannelView } from '~/services/channels/channels.server'
import { connectWhatsApp } from '~/services/channels/whatsapp.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'
import { platformDeps } from '~/runtime/channel-deps.server'

export const action = apiRoute(
  handle(endpoints.connectWhatsApp, async ({ caller, params, body }) => {
    const deps = platformDeps(caller.runtime)
    const connection = await connectWhatsApp(await scopeOf(caller, params.orgId), body, deps)
    return {
      data: { ...connection, channel: toChannelView(connection.channel, deps) },
      message: 'WhatsApp number connected',
    }
  }),
)
export const loader = action
