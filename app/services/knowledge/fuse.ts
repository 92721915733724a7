/** Reciprocal rank fusion's constant (Cormack, Clarke & Büttcher, 2009): dampens the weight of the very first ranks. */
export const RRF_K = 60

export type Fused = { id: string; score: number }

/**
 * Reciprocal rank fusion: each ranking (ids, best first) gives an id 1 / (k + rank), rank counted from 1; an id
 * scores the sum over the rankings it is in. Best first; ties keep the order in which the ids were first met
 * (the first ranking's before the second's). An id repeated within a ranking counts at its first place.
 */
export function reciprocalRankFusion(rankings: readonly (readonly string[])[], k = RRF_K): Fused[] {
  const scores = new Map<string, number>()
  for (const ranking of rankings) {
    const seen = new Set<string>()
    ranking.forEach((id, index) => {
      if (seen.has(id)) return
      seen.add(id)
      scores.set(id, (scores.get(id) ?? 0) + 1 / (k + index + 1))
    })
  }
  const order = [...scores.keys()]
  return order
    .map((id, first) => ({ id, score: scores.get(id) ?? 0, first }))
    .sort((a, b) => b.score - a.score || a.first - b.first)
    .map(({ id, score }) => ({ id, score }))
}
