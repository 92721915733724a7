import { endpoints } from '~/lib/api/endpoints'
import { connectPlatform, requirePlatform } from '~/services/channels/platforms.server'
import { apiRoute, handle, headerScope } from '~/http/api.server'
import { platformDeps } from '~/runtime/channel-deps.server'

export const action = apiRoute(
  handle(endpoints.connectPlatform, async ({ caller, request, params, body }) => {
    const platform = requirePlatform(params.platform)
    const scope = await headerScope(caller, request)
    const connections = await connectPlatform(scope, platform, body, platformDeps(caller.runtime))
    return { data: connections, message: 'Connected' }
  }),
)
export const loader = action
