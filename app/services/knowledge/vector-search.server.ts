import { sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { rowsOf } from '~/db/rows.server'

// The vector half of the knowledge search (docs/decisions/043): neither PGlite nor Debian's PostgreSQL has pgvector,
// so an organization's passage vectors are read once into a Float32Array (one row per passage, scaled to length 1)
// and a question is scored against all of them: an exact brute-force cosine. The matrix stays in the process until
// the organization's knowledge changes; each search first asks the database whether it has (one small query).

/** An organization's passage vectors, each scaled to length 1, row after row. */
type Matrix = {
  signature: string
  dims: number
  passageIds: string[]
  sourceIds: string[]
  vectors: Float32Array
}

export type VectorHit = { passageId: string; similarity: number }

/** Floats the process keeps across organizations (4 bytes each: 256 MB); the least recently used go first. */
const CACHE_BUDGET_FLOATS = 64 * 1024 * 1024

/** Per database (tests and benches open several), per organization: never one organization's matrix for another. */
const caches = new WeakMap<Database, Map<string, Matrix>>()

/**
 * What the organization's vectors are at this moment: its sources, each with its row version (`xmin`, the
 * transaction that last wrote the row). Every write of passages — processing a source (the passages and their
 * vectors are inserted with the source's update, in one transaction) and deleting one — updates or deletes its
 * source's row in the same transaction, so the signature changes whenever the passages do. One index scan of the
 * organization's sources: cheaper than any read of its passages.
 */
async function readSignature(db: Database, organizationId: string): Promise<string> {
  const [row] = rowsOf<{ signature: string | null }>(
    await db.execute(sql`
      select count(*)::text || ':' || coalesce(md5(string_agg(id::text || '@' || xmin::text, ',' order by id)), '')
        as signature
      from knowledge_sources where organization_id = ${organizationId}`),
  )
  return row?.signature ?? ''
}

/**
 * A `real[]` in PostgreSQL's binary form (`array_send`): the dimensions, a null flag and the element type, then each
 * element as its length and its big-endian float4. Read straight into floats: the text form (`1.234e-05,...`) costs
 * the database a float-to-text conversion and the driver a parse per number, seconds for 20,000 vectors. Undefined
 * for anything but a one-dimensional array of non-null floats.
 */
function floatsOf(bytes: Uint8Array): Float32Array | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.byteLength < 20 || view.getInt32(0) !== 1 || view.getInt32(4) !== 0) return undefined
  const length = view.getInt32(12)
  if (length <= 0 || bytes.byteLength !== 20 + 8 * length) return undefined
  const floats = new Float32Array(length)
  for (let j = 0; j < length; j++) {
    if (view.getInt32(20 + 8 * j) !== 4) return undefined
    floats[j] = view.getFloat32(24 + 8 * j)
  }
  return floats
}

async function loadMatrix(db: Database, organizationId: string, signature: string): Promise<Matrix> {
  const rows = rowsOf<{ id: string; source_id: string; vector: Uint8Array }>(
    await db.execute(sql`
      select id, source_id, array_send(embedding) as vector from knowledge_passages
      where organization_id = ${organizationId} and embedding is not null and cardinality(embedding) > 0`),
  ).flatMap((row) => {
    const vector = floatsOf(row.vector)
    return vector ? [{ id: row.id, sourceId: row.source_id, vector }] : []
  })
  // Vectors of another length (the model was changed, and some sources not processed again since) cannot be
  // compared: the most common length wins, the others sit out until their sources are processed again.
  const lengths = new Map<number, number>()
  for (const row of rows) lengths.set(row.vector.length, (lengths.get(row.vector.length) ?? 0) + 1)
  const dims = [...lengths].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 0
  const kept = rows.filter((row) => row.vector.length === dims)
  const vectors = new Float32Array(kept.length * dims)
  kept.forEach((row, index) => {
    let norm = 0
    for (let j = 0; j < dims; j++) norm += row.vector[j] * row.vector[j]
    norm = Math.sqrt(norm)
    if (norm > 0) for (let j = 0; j < dims; j++) row.vector[j] /= norm
    vectors.set(row.vector, index * dims)
  })
  return {
    signature,
    dims,
    passageIds: kept.map((row) => row.id),
    sourceIds: kept.map((row) => row.sourceId),
    vectors,
  }
}

/** The organization's matrix as its knowledge is now: the cached one, unless the knowledge changed since. */
async function matrixOf(db: Database, organizationId: string): Promise<Matrix> {
  let cache = caches.get(db)
  if (!cache) {
    cache = new Map()
    caches.set(db, cache)
  }
  // Read before the vectors: a change committed in between makes the next search load again (never the reverse).
  const signature = await readSignature(db, organizationId)
  const cached = cache.get(organizationId)
  cache.delete(organizationId)
  const matrix = cached?.signature === signature ? cached : await loadMatrix(db, organizationId, signature)
  cache.set(organizationId, matrix)
  let floats = [...cache.values()].reduce((sum, m) => sum + m.vectors.length, 0)
  for (const [key, other] of cache) {
    if (floats <= CACHE_BUDGET_FLOATS || key === organizationId) break
    cache.delete(key)
    floats -= other.vectors.length
  }
  return matrix
}

/**
 * The organization's passages nearest to a question's vector by cosine similarity, best first: at most `limit`,
 * each at least `minSimilarity`, of `sourceIds` only when given. Passages without a vector take no part.
 */
export async function rankByVector(
  db: Database,
  {
    organizationId,
    vector,
    limit,
    minSimilarity,
    sourceIds,
  }: { organizationId: string; vector: number[]; limit: number; minSimilarity: number; sourceIds?: string[] },
): Promise<VectorHit[]> {
  const matrix = await matrixOf(db, organizationId)
  const { dims, vectors } = matrix
  if (limit < 1 || dims === 0 || vector.length !== dims) return []
  const query = new Float32Array(dims)
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0))
  if (norm === 0) return []
  for (let j = 0; j < dims; j++) query[j] = vector[j] / norm
  const allowed = sourceIds ? new Set(sourceIds) : undefined
  // The best `limit` so far, worst last: a passage enters only when it beats the worst.
  const best: { row: number; similarity: number }[] = []
  for (let row = 0; row < matrix.passageIds.length; row++) {
    if (allowed && !allowed.has(matrix.sourceIds[row])) continue
    const offset = row * dims
    let similarity = 0
    for (let j = 0; j < dims; j++) similarity += vectors[offset + j] * query[j]
    if (similarity < minSimilarity) continue
    if (best.length === limit && similarity <= best[best.length - 1].similarity) continue
    let at = best.length
    while (at > 0 && best[at - 1].similarity < similarity) at--
    best.splice(at, 0, { row, similarity })
    if (best.length > limit) best.pop()
  }
  return best.map(({ row, similarity }) => ({ passageId: matrix.passageIds[row], similarity }))
}
