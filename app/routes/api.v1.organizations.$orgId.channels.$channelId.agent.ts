import { endpoints } from '~/lib/api/endpoints'
import { CHANNEL_TEXTS } from '~/lib/channels/channels'
import { assignAgent, removeAgent, toChannelView } from '~/services/channels/channels.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.assignChannelAgent, async ({ caller, params, body }) => ({
    data: toChannelView(
      await assignAgent(await scopeOf(caller, params.orgId), params.channelId, body),
      caller.runtime.config,
    ),
    message: CHANNEL_TEXTS.assigned,
  })),
  handle(endpoints.removeChannelAgent, async ({ caller, params }) => ({
    data: toChannelView(
      await removeAgent(await scopeOf(caller, params.orgId), params.channelId),
      caller.runtime.config,
    ),
    message: CHANNEL_TEXTS.removed,
  })),
)

export const loader = route
export const action = route
