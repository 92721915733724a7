import { describe, expect, it } from 'vitest'
import { reciprocalRankFusion, RRF_K } from './fuse'

describe('reciprocalRankFusion', () => {
  it('scores each id 1 / (k + rank) summed over the rankings', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['c', 'a'],
    ])
    expect(fused.map((f) => f.id)).toEqual(['a', 'c', 'b'])
    expect(fused[0].score).toBeCloseTo(1 / 61 + 1 / 62, 12)
    expect(fused[1].score).toBeCloseTo(1 / 63 + 1 / 61, 12)
    expect(fused[2].score).toBeCloseTo(1 / 62, 12)
  })

  it('uses k = 60 by default and takes another k', () => {
    expect(RRF_K).toBe(60)
    expect(reciprocalRankFusion([['a']])[0].score).toBeCloseTo(1 / 61, 12)
    expect(reciprocalRankFusion([['a']], 1)[0].score).toBeCloseTo(1 / 2, 12)
  })

  it('puts an id found by both rankings above ids found first by one', () => {
    const fused = reciprocalRankFusion([
      ['keyword-only', 'both'],
      ['vector-only', 'both'],
    ])
    expect(fused[0].id).toBe('both')
  })

  it('breaks ties by first appearance, the first ranking before the second', () => {
    expect(
      reciprocalRankFusion([
        ['a', 'b'],
        ['x', 'y'],
      ]).map((f) => f.id),
    ).toEqual(['a', 'x', 'b', 'y'])
  })

  it('returns one ranking as it is, and nothing for no rankings', () => {
    expect(reciprocalRankFusion([['c', 'b', 'a'], []]).map((f) => f.id)).toEqual(['c', 'b', 'a'])
    expect(reciprocalRankFusion([])).toEqual([])
  })

  it('counts an id repeated within a ranking once, at its first place', () => {
    const fused = reciprocalRankFusion([['a', 'b', 'a']])
    expect(fused).toHaveLength(2)
    expect(fused[0]).toEqual({ id: 'a', score: 1 / 61 })
  })
})
