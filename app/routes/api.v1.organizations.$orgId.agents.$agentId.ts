import { endpoints } from '~/lib/api/endpoints'
import { archiveAgent, getAgent, updateAgent } from '~/services/agents/agents.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.getAgent, async ({ caller, params }) => ({
    data: await getAgent(await scopeOf(caller, params.orgId), params.agentId),
  })),
  handle(endpoints.updateAgent, async ({ caller, params, body }) => ({
    data: await updateAgent(await scopeOf(caller, params.orgId), params.agentId, body),
    message: 'Agent updated successfully',
  })),
  handle(endpoints.deleteAgent, async ({ caller, params }) => ({
    data: await archiveAgent(await scopeOf(caller, params.orgId), params.agentId),
    message: 'Agent deleted successfully',
  })),
)

export const loader = route
export const action = route
