import { endpoints } from '~/lib/api/endpoints'
import { listChannels, toChannelView } from '~/services/channels/channels.server'
import { createChannels } from '~/services/channels/create-channels.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'
import { platformDeps } from '~/runtime/channel-deps.server'

const route = apiRoute(
  handle(endpoints.listChannels, async ({ caller, params, query }) => {
    const channels = await listChannels(await scopeOf(caller, params.orgId), query)
    return { data: channels.map((c) => toChannelView(c, caller.runtime.config)) }
  }),
  handle(endpoints.createChannels, async ({ caller, params, body }) => {
    const deps = platformDeps(caller.runtime)
    const created = await createChannels(await scopeOf(caller, params.orgId), body, deps)
    return {
      data: created.map((c) => toChannelView(c, deps)),
      message: created.length === 1 ? 'Channel connected' : `${created.length} channels connected`,
    }
  }),
)

export const loader = route
export const action = route
