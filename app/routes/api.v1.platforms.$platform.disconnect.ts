import { endpoints } from '~/lib/api/endpoints'
import { disconnectPlatform, requirePlatform } from '~/services/channels/platforms.server'
import { apiRoute, handle, headerScope } from '~/http/api.server'
import { platformDeps } from '~/runtime/channel-deps.server'

export const action = apiRoute(
  handle(endpoints.disconnectPlatform, async ({ caller, request, params, body }) => {
    const platform = requirePlatform(params.platform)
    const scope = await headerScope(caller, request)
    const result = await disconnectPlatform(scope, platform, body ?? {}, platformDeps(caller.runtime))
    return { data: result, message: 'Disconnected' }
  }),
)
export const loader = action
