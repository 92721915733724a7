import { endpoints } from '~/lib/api/endpoints'
import { listChannels, toChannelView } from '~/services/channels/channels.server'
import { connectTelegramBot } from '~/services/channels/telegram.server'
import { apiRoute, handle, scopeOf } from '~/utils/api.server'
import { platformDeps } from '~/utils/channel-deps.server'

const route = apiRoute(
  handle(endpoints.listChannels, async ({ caller, params, query }) => {
    const channels = await listChannels(await scopeOf(caller, params.orgId), query)
    return { data: channels.map((c) => toChannelView(c, caller.runtime.config)) }
  }),
  handle(endpoints.createChannels, async ({ caller, params, body }) => {
    const scope = await scopeOf(caller, params.orgId)
    const deps = platformDeps(caller.runtime)
    const created = []
    for (const channel of body.channels) created.push(await connectTelegramBot(scope, channel, deps))
    return { data: created.map((c) => toChannelView(c, deps)), message: 'Channel connected' }
  }),
)

export const loader = route
export const action = route
