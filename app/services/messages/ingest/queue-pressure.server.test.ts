import { describe, expect, it } from 'vitest'
import { createLogger } from '~/utils/logger.server'
import { getMetrics } from '~/utils/metrics.server'
import { createReplyQueuePressure } from './queue-pressure.server'

const overCount = async () =>
  (await getMetrics().ackedOverHighWater.get()).values.find((v) => v.labels.platform === 'whatsapp')?.value ??
  0

function setup(depths: number[]) {
  let clock = 0
  const reads: number[] = []
  const lines: string[] = []
  const pressure = createReplyQueuePressure({
    readDepth: async () => {
      reads.push(clock)
      return depths[Math.min(reads.length - 1, depths.length - 1)]
    },
    highWater: 10,
    logger: createLogger({ sink: (line) => lines.push(line) }),
    refreshMs: 1000,
    warnEveryMs: 30_000,
    now: () => clock,
  })
  return { pressure, reads, lines, tick: (ms: number) => (clock += ms) }
}
const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('createReplyQueuePressure', () => {
  it('reads the depth at most once a second in the background, never once per acknowledgement', async () => {
    const { pressure, reads, tick } = setup([3])
    for (let i = 0; i < 50; i++) {
      expect(pressure.acknowledged('whatsapp')).toBe(false)
      await settle()
      tick(10)
    }
    // 50 acknowledgements over 500 ms: the first read, none after within the second.
    expect(reads).toEqual([0])
    tick(600)
    pressure.acknowledged('whatsapp')
    await settle()
    expect(reads).toEqual([0, 1100])
    expect(pressure.lastDepth()).toBe(3)
  })

  it('above the bound still acknowledges, counts each acknowledgement, and warns at most every 30 s', async () => {
    const { pressure, lines, tick } = setup([25])
    const before = await overCount()
    pressure.acknowledged('whatsapp') // the first reading starts; it is not known yet
    await settle()
    const over: boolean[] = []
    for (let i = 0; i < 5; i++) {
      over.push(pressure.acknowledged('whatsapp'))
      tick(5000)
    }
    expect(over).toEqual([true, true, true, true, true])
    expect((await overCount()) - before).toBe(5)
    const warnings = lines.map((line) => JSON.parse(line)).filter((l) => l.level === 'warn')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatchObject({ depth: 25, highWater: 10, acknowledgedOverHighWater: 1 })

    tick(10_000) // 35 s after the first warning
    await settle()
    pressure.acknowledged('whatsapp')
    const later = lines.map((line) => JSON.parse(line)).filter((l) => l.level === 'warn')
    expect(later).toHaveLength(2)
    expect(later[1]).toMatchObject({ acknowledgedOverHighWater: 5 })
  })

  it('shares one query among concurrent fresh readings (one per scrape)', async () => {
    const { pressure, reads } = setup([7])
    expect(await Promise.all([pressure.read(), pressure.read(), pressure.read()])).toEqual([7, 7, 7])
    expect(reads).toHaveLength(1)
  })
})
