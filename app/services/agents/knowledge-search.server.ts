import type { KnowledgeHit } from '~/lib/knowledge/knowledge'
import { getAgent } from './agents.server'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import type { KnowledgeEmbeddings } from '~/services/knowledge/embeddings.server'
import { searchWithVectors } from '~/services/knowledge/fused-search.server'

/**
 * Retrieval for the "Try a question" box and the API's search: the organization's passages, or those an agent
 * answers from (its selection; none when it answers from its prompt only). An agent of another organization is not
 * found. With an embedding model, the keyword and vector rankings are fused (docs/decisions/043).
 */
export async function searchKnowledge(
  scope: OrganizationScope,
  { query, agentId, limit }: { query: string; agentId?: string; limit: number },
  embeddings?: KnowledgeEmbeddings,
): Promise<KnowledgeHit[]> {
  const agent = agentId ? await getAgent(scope, agentId) : undefined
  if (agent?.knowledgeMode === 'none') return []
  const sourceIds = agent?.knowledgeMode === 'selected' ? agent.knowledgeSourceIds : undefined
  return searchWithVectors(
    scope.db,
    { organizationId: scope.organizationId, query, limit, sourceIds },
    embeddings,
  )
}
