import { endpoints } from '~/lib/api/endpoints'
import { createAgent, listAgents } from '~/services/agents/agents.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.listAgents, async ({ caller, params, query }) => {
    const { items, total, page, pageSize } = await listAgents(await scopeOf(caller, params.orgId), query)
    return { data: items, pagination: { page, pageSize, total } }
  }),
  handle(endpoints.createAgent, async ({ caller, params, body }) => ({
    data: await createAgent(await scopeOf(caller, params.orgId), body),
    message: 'Agent created successfully',
  })),
)

export const loader = route
export const action = route
