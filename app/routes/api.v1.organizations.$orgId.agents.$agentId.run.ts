import { endpoints } from '~/lib/api/endpoints'
import { runAgent } from '~/services/agents/run-agent.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.runAgent, async ({ caller, params, body }) => ({
    data: await runAgent(await scopeOf(caller, params.orgId), params.agentId, body, {
      models: caller.runtime.models,
      embeddings: caller.runtime.embeddings,
    }),
    message: 'Agent test completed',
  })),
)

export const loader = route
export const action = route
