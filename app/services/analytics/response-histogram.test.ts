import { describe, expect, it } from 'vitest'
import {
  percentileOf,
  RESPONSE_BIN_ERROR,
  RESPONSE_BINS_PER_OCTAVE,
  secondsOfBin,
  UNANSWERED_BIN,
  type ResponseHistogram,
} from './response-histogram'

/** The bin of a time, as the SQL expression computes it. */
const binOf = (seconds: number) =>
  seconds < 1 ? 0 : 1 + Math.floor((Math.log(seconds) * RESPONSE_BINS_PER_OCTAVE) / Math.log(2))

/** percentile_cont over the exact times. */
function exactPercentile(times: number[], p: number) {
  const sorted = times.toSorted((a, b) => a - b)
  const rank = p * (sorted.length - 1)
  const low = sorted[Math.floor(rank)]
  return low + (rank - Math.floor(rank)) * (sorted[Math.ceil(rank)] - low)
}

function histogramOf(times: number[]): ResponseHistogram {
  const histogram: ResponseHistogram = new Map()
  for (const t of times) histogram.set(binOf(t), (histogram.get(binOf(t)) ?? 0) + 1)
  return histogram
}

describe('the first-response histogram', () => {
  it('reads a time back within a bin of it, from a second to a month', () => {
    for (const seconds of [1, 1.5, 2, 7, 30, 59.9, 60, 61, 600, 3600, 86_400, 30 * 86_400]) {
      const read = secondsOfBin(binOf(seconds))
      expect(Math.abs(read - seconds) / seconds).toBeLessThanOrEqual(RESPONSE_BIN_ERROR + 1e-12)
    }
    expect(secondsOfBin(binOf(0.2))).toBe(0.5)
    expect(RESPONSE_BIN_ERROR).toBeLessThan(0.022)
  })

  it('gives the median and 90th percentile of many times within a bin of percentile_cont', () => {
    let seed = 7
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646
    for (const size of [1, 2, 3, 10, 1000]) {
      const times = Array.from({ length: size }, () => 1 + random() ** 3 * 3600)
      for (const p of [0.5, 0.9]) {
        const exact = exactPercentile(times, p)
        const read = percentileOf(histogramOf(times), p)
        expect(Math.abs((read ?? 0) - exact) / exact).toBeLessThanOrEqual(RESPONSE_BIN_ERROR + 1e-12)
      }
    }
  })

  it('has no percentile without an answered conversation', () => {
    expect(percentileOf(new Map(), 0.5)).toBeNull()
    expect(percentileOf(new Map([[UNANSWERED_BIN, 4]]), 0.9)).toBeNull()
  })
})
