import { endpoints } from '~/lib/api/endpoints'
import {
  deleteKnowledgeSource,
  getKnowledgeSource,
  updateKnowledgeSource,
} from '~/services/knowledge/sources.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'
import { knowledgeDeps } from '~/http/knowledge.server'

const route = apiRoute(
  handle(endpoints.getKnowledgeSource, async ({ caller, params }) => ({
    data: await getKnowledgeSource(await scopeOf(caller, params.orgId), params.sourceId),
  })),
  handle(endpoints.updateKnowledgeSource, async ({ caller, params, body }) => ({
    data: await updateKnowledgeSource(
      await scopeOf(caller, params.orgId),
      params.sourceId,
      body,
      await knowledgeDeps(),
    ),
    message: 'Knowledge source updated: it is being processed again',
  })),
  handle(endpoints.deleteKnowledgeSource, async ({ caller, params }) => {
    await deleteKnowledgeSource(await scopeOf(caller, params.orgId), params.sourceId)
    return { data: null, message: 'Knowledge source deleted' }
  }),
)

export const loader = route
export const action = route
