import { endpoints } from '~/lib/api/endpoints'
import { refreshKnowledgeSource } from '~/services/knowledge/sources.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'
import { knowledgeDeps } from '~/http/knowledge.server'

const route = apiRoute(
  handle(endpoints.refreshKnowledgeSource, async ({ caller, params }) => ({
    data: await refreshKnowledgeSource(
      await scopeOf(caller, params.orgId),
      params.sourceId,
      await knowledgeDeps(),
    ),
    message: 'Knowledge source is being processed again',
  })),
)

export const loader = route
export const action = route
