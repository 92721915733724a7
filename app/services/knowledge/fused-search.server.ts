import { sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { rowsOf } from '~/db/rows.server'
import type { KnowledgeHit } from '~/lib/knowledge/knowledge'
import { embedQuestion, type KnowledgeEmbeddings } from './embeddings.server'
import { reciprocalRankFusion } from './fuse'
import { searchPassages, type PassageSearch } from './search.server'
import { rankByVector, type VectorHit } from './vector-search.server'

/** Passages each ranking contributes to the fusion (the API's largest limit). */
export const FUSION_CANDIDATES = 20

/**
 * The knowledge search (docs/decisions/043). Without an embedding model: the keyword search, as it is. With one:
 * the keyword ranking and the question's nearest passage vectors, fused by reciprocal rank fusion (k = 60). A
 * passage is relevant when either ranking says so — its keyword score (the share of the question's weighted words
 * it holds) or its cosine similarity reaches the minimum relevance, the cosine also the model's floor
 * (LLM_EMBEDDING_MIN_SIMILARITY) — and shows the higher of the two. If the question cannot be embedded (the
 * endpoint is down), the keyword ranking answers alone.
 */
export async function searchWithVectors(
  db: Database,
  search: PassageSearch,
  embeddings?: KnowledgeEmbeddings,
): Promise<KnowledgeHit[]> {
  if (!embeddings || search.limit < 1) return searchPassages(db, search)
  const depth = Math.max(search.limit, FUSION_CANDIDATES)
  const [keyword, vector] = await Promise.all([
    searchPassages(db, { ...search, limit: depth }),
    vectorRanking(db, search, embeddings, depth),
  ])
  if (vector.length === 0) return keyword.slice(0, search.limit)
  const similarity = new Map(vector.map((hit) => [hit.passageId, hit.similarity]))
  const fused = reciprocalRankFusion([
    keyword.map((hit) => hit.passageId),
    vector.map((hit) => hit.passageId),
  ])
    .slice(0, search.limit)
    .map((entry) => entry.id)
  const found = new Map(keyword.map((hit) => [hit.passageId, hit]))
  const missing = fused.filter((id) => !found.has(id))
  for (const hit of await passagesByIds(db, search, missing)) found.set(hit.passageId, hit)
  // A passage the database no longer holds (deleted since the vectors were read) is left out.
  return fused.flatMap((id) => {
    const hit = found.get(id)
    if (!hit) return []
    const cosine = Math.round(Math.min(similarity.get(id) ?? 0, 1) * 10_000) / 10_000
    return [{ ...hit, score: Math.max(hit.score, cosine) }]
  })
}

async function vectorRanking(
  db: Database,
  { organizationId, query, sourceIds, minRelevance = 0 }: PassageSearch,
  embeddings: KnowledgeEmbeddings,
  limit: number,
): Promise<VectorHit[]> {
  if (sourceIds?.length === 0 || query.trim() === '') return []
  const vector = await embedQuestion(embeddings, query, { organizationId })
  if (!vector) return []
  return rankByVector(db, {
    organizationId,
    vector,
    limit,
    minSimilarity: Math.max(minRelevance, embeddings.minSimilarity),
    sourceIds,
  })
}

/** The passages of these ids as hits (scored 0 here), of the organization and the search's sources only. */
async function passagesByIds(db: Database, search: PassageSearch, ids: string[]): Promise<KnowledgeHit[]> {
  if (ids.length === 0) return []
  const sources = search.sourceIds
    ? sql`and p.source_id = any(${`{${search.sourceIds.join(',')}}`}::uuid[])`
    : sql``
  const rows = rowsOf<{
    passage_id: string
    source_id: string
    title: string
    heading_path: string[]
    text: string
    url: string | null
  }>(
    await db.execute(sql`
      select p.id as passage_id, p.source_id, s.title, p.heading_path, p.text, p.url
      from knowledge_passages p join knowledge_sources s on s.id = p.source_id
      where p.organization_id = ${search.organizationId} and s.organization_id = ${search.organizationId}
        and p.id = any(${`{${ids.join(',')}}`}::uuid[]) ${sources}`),
  )
  return rows.map((row) => ({
    passageId: row.passage_id,
    sourceId: row.source_id,
    title: row.title,
    headingPath: row.heading_path,
    text: row.text,
    url: row.url,
    score: 0,
  }))
}
