import { analyticsApiQuerySchema, analyticsSchema } from '~/lib/analytics/analytics'
import { defineEndpoint } from '~/lib/api/contract'
import { orgParams } from './shared'

export const analyticsEndpoints = {
  getAnalytics: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/analytics',
    operationId: 'getAnalytics',
    summary:
      "The dashboard's figures for a period (`from` and `to`: dates in the organization's time zone, both included, at most 366 days; both left out: the dashboard's default period, the last 7 days to today), optionally for one channel or agent: totals, a series per day or hour (hours for at most 7 days), per-agent and per-channel rows, and the top failure reasons. Costs are estimates from a price table",
    tag: 'Analytics',
    params: orgParams,
    query: analyticsApiQuerySchema,
    response: analyticsSchema,
  }),
}
