import { endpoints } from '~/lib/api/endpoints'
import { listChannels, toChannelView } from '~/services/channels/channels.server'
import { connectTelegramBot } from '~/services/channels/telegram.server'
import { apiRoute, handle, scopeOf } from '~/utils/api.server'

const route = apiRoute(
  handle(endpoints.listChannels, async ({ caller, params, query }) => {
    const channels = await listChannels(await scopeOf(caller, params.orgId), query)
    return { data: channels.map((c) => toChannelView(c, caller.runtime.config.publicUrl)) }
  }),
  handle(endpoints.createChannels, async ({ caller, params, body }) => {
    const scope = await scopeOf(caller, params.orgId)
    const { config, telegram } = caller.runtime
    const deps = { publicUrl: config.publicUrl, encryptionKey: config.encryptionKey, telegram }
    const created = []
    for (const channel of body.channels) created.push(await connectTelegramBot(scope, channel, deps))
    return { data: created.map((c) => toChannelView(c, config.publicUrl)), message: 'Channel connected' }
  }),
)

export const loader = route
export const action = route
