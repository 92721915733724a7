import { endpoints } from '~/lib/api/endpoints'
import { getAnalytics } from '~/services/analytics/analytics.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.getAnalytics, async ({ caller, params, query }) => ({
    data: await getAnalytics(await scopeOf(caller, params.orgId), {
      ...query,
      prices: caller.runtime.config.llm.prices,
    }),
  })),
)

export const loader = route
export const action = route
