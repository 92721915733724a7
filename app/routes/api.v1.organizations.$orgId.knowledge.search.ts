import { endpoints } from '~/lib/api/endpoints'
import { apiRoute, handle, scopeOf } from '~/http/api.server'
import { searchKnowledge } from '~/services/agents/knowledge-search.server'

// A static segment: Remix ranks `knowledge/search` above `knowledge/$sourceId`, so a POST here is a search.
const route = apiRoute(
  handle(endpoints.searchKnowledge, async ({ caller, params, body }) => ({
    data: await searchKnowledge(await scopeOf(caller, params.orgId), body, caller.runtime.embeddings),
  })),
)

export const loader = route
export const action = route
