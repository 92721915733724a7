import { endpoints } from '~/lib/api/endpoints'
import { apiRoute, handle, scopeOf } from '~/http/api.server'
import { searchKnowledge } from '~/services/knowledge/search-knowledge.server'

// A static segment: Remix ranks `knowledge/search` above `knowledge/$sourceId`, so a POST here is a search.
const route = apiRoute(
  handle(endpoints.searchKnowledge, async ({ caller, params, body }) => ({
    data: await searchKnowledge(await scopeOf(caller, params.orgId), body),
  })),
)

export const loader = route
export const action = route
