import { endpoints } from '~/lib/api/endpoints'
import { refreshPlatform, requirePlatform } from '~/services/channels/platforms.server'
import { apiRoute, handle, headerScope } from '~/http/api.server'
import { platformDeps } from '~/runtime/channel-deps.server'

export const action = apiRoute(
  handle(endpoints.refreshPlatform, async ({ caller, request, params, body }) => {
    const platform = requirePlatform(params.platform)
    const scope = await headerScope(caller, request)
    const refresh = { forceRefresh: body?.forceRefresh, connectionId: body?.options?.connectionId }
    const status = await refreshPlatform(scope, platform, refresh, platformDeps(caller.runtime))
    return { data: status, message: 'Refreshed' }
  }),
)
export const loader = action
