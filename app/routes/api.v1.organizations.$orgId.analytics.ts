import { endpoints } from '~/lib/api/endpoints'
import { defaultDashboardRange } from '~/lib/analytics/dashboard-query'
import { getOrganization } from '~/services/organizations/organizations.server'
import { getAnalytics } from '~/services/analytics/analytics.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.getAnalytics, async ({ caller, params, query }) => {
    const scope = await scopeOf(caller, params.orgId)
    const { from, to } = query
    const period =
      from !== undefined && to !== undefined
        ? { from, to }
        : defaultDashboardRange((await getOrganization(scope)).timeZone)
    return {
      data: await getAnalytics(scope, { ...query, ...period, prices: caller.runtime.config.llm.prices }),
    }
  }),
)

export const loader = route
export const action = route
