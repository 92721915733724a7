import type { KnowledgeHit } from '~/lib/knowledge'
import { getAgent } from '~/services/agents/agents.server'
import { searchPassages } from '~/services/knowledge/search.server'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { getRuntime } from '~/runtime/runtime.server'

/** What the sources service needs to send a source's processing job: the runtime's queue. */
export async function knowledgeDeps() {
  const { knowledgeJobs } = await getRuntime()
  return { jobs: knowledgeJobs }
}

/**
 * Retrieval for the "Try a question" box and the API's search: the organization's passages, or those an agent
 * answers from (its selection; none when it answers from its prompt only). An agent of another organization is not
 * found.
 * TODO(issue #18): searchKnowledge(scope, ...) from the knowledge service, once it is there.
 */
export async function searchInScope(
  scope: OrganizationScope,
  { query, agentId, limit }: { query: string; agentId?: string; limit: number },
): Promise<KnowledgeHit[]> {
  const agent = agentId ? await getAgent(scope, agentId) : undefined
  if (agent?.knowledgeMode === 'none') return []
  const sourceIds = agent?.knowledgeMode === 'selected' ? agent.knowledgeSourceIds : undefined
  return searchPassages(scope.db, { organizationId: scope.organizationId, query, limit, sourceIds })
}
