import { endpoints } from '~/lib/api/endpoints'
import { platformStatus, requirePlatform } from '~/services/channels/platforms.server'
import { apiRoute, handle, headerScope } from '~/http/api.server'

export const loader = apiRoute(
  handle(endpoints.platformStatus, async ({ caller, request, params }) => {
    const platform = requirePlatform(params.platform)
    return { data: await platformStatus(await headerScope(caller, request), platform) }
  }),
)
export const action = loader
