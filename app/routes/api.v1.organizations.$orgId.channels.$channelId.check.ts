import { endpoints } from '~/lib/api/endpoints'
import { HEALTH_TEXTS } from '~/lib/channels/health'
import { healthCheckDeps } from '~/runtime/channel-deps.server'
import { checkChannelHealth } from '~/services/channels/health-check.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.checkChannel, async ({ caller, params }) => ({
    data: await checkChannelHealth(
      await scopeOf(caller, params.orgId),
      params.channelId,
      healthCheckDeps(caller.runtime),
    ),
    message: HEALTH_TEXTS.checked,
  })),
)

export const loader = route
export const action = route
