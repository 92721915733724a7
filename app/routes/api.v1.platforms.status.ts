import { endpoints } from '~/lib/api/endpoints'
import { allPlatformStatuses } from '~/services/channels/platforms.server'
import { apiRoute, handle, headerScope } from '~/http/api.server'

export const loader = apiRoute(
  handle(endpoints.platformStatuses, async ({ caller, request }) => ({
    data: await allPlatformStatuses(await headerScope(caller, request)),
  })),
)
export const action = loader
