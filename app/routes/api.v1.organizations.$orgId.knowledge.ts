import { endpoints } from '~/lib/api/endpoints'
import { createKnowledgeSource, listKnowledgeSources } from '~/services/knowledge/sources.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'
import { knowledgeDeps } from '~/http/knowledge.server'

const route = apiRoute(
  handle(endpoints.listKnowledgeSources, async ({ caller, params }) => ({
    data: await listKnowledgeSources(await scopeOf(caller, params.orgId)),
  })),
  handle(endpoints.createKnowledgeSource, async ({ caller, params, body, form }) => {
    const scope = await scopeOf(caller, params.orgId)
    const input = form
      ? {
          kind: 'file' as const,
          file: { name: form.file.name, bytes: new Uint8Array(await form.file.arrayBuffer()) },
          title: form.title || undefined,
        }
      : body
    if (!input) throw new Error('The contract gives a body or a form')
    return {
      data: await createKnowledgeSource(scope, input, await knowledgeDeps()),
      message: 'Knowledge source added: it is being processed',
    }
  }),
)

export const loader = route
export const action = route
