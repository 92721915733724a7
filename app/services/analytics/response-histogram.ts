import { sql, type SQL } from 'drizzle-orm'

/*
 * First-response times as a histogram (docs/decisions/044): the rollup keeps, per channel and local hour, how many
 * conversations fell in each bin of a log scale, and the dashboard reads its median and 90th percentile from the
 * summed bins instead of sorting every conversation of the period. Bin 0 holds [0, 1 s); bin k ≥ 1 holds
 * [2^((k-1)/16), 2^(k/16)) seconds, 16 bins per doubling: a time is read back as its bin's geometric middle, within
 * RESPONSE_BIN_ERROR of the exact time (2.2%; under a second, within half a second).
 */
export const RESPONSE_BINS_PER_OCTAVE = 16
/** A conversation started and not answered (yet): counted as started, in no percentile. */
export const UNANSWERED_BIN = -1
/** The largest relative error of a time read back from its bin (1 s and more). */
export const RESPONSE_BIN_ERROR = 2 ** (1 / (2 * RESPONSE_BINS_PER_OCTAVE)) - 1

/** A first-response time's bin in SQL, from seconds (null: not answered). The same expression for both halves. */
export const responseBinOf = (seconds: SQL) => sql`case
  when ${seconds} is null then ${UNANSWERED_BIN}
  when ${seconds} < 1 then 0
  else 1 + floor(ln(${seconds}) * ${RESPONSE_BINS_PER_OCTAVE} / ln(2))::int end`

/** The time a bin stands for: its geometric middle (bin 0: half a second). */
export function secondsOfBin(bin: number) {
  return bin === 0 ? 0.5 : 2 ** ((bin - 0.5) / RESPONSE_BINS_PER_OCTAVE)
}

/** The answered conversations' times, as bins and counts. */
export type ResponseHistogram = Map<number, number>

/**
 * The p-th percentile (0..1) of a histogram's times, interpolated between the two nearest ranks as
 * `percentile_cont` does over the exact times, each rank read as its bin's time. Null for an empty histogram.
 */
export function percentileOf(histogram: ResponseHistogram, p: number): number | null {
  const bins = [...histogram].filter(([bin, n]) => bin !== UNANSWERED_BIN && n > 0).sort(([a], [b]) => a - b)
  const count = bins.reduce((sum, [, n]) => sum + n, 0)
  if (count === 0) return null
  const rank = p * (count - 1)
  const valueAt = (wanted: number) => {
    let seen = 0
    for (const [bin, n] of bins) {
      seen += n
      if (wanted < seen) return secondsOfBin(bin)
    }
    return secondsOfBin(bins[bins.length - 1][0])
  }
  const low = valueAt(Math.floor(rank))
  const high = valueAt(Math.ceil(rank))
  return low + (rank - Math.floor(rank)) * (high - low)
}
