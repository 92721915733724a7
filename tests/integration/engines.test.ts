import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
type Manifest = {
  version: string
  engines?: { node?: string }
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
}
const manifest = (dir: string): Manifest => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))

/**
 * The packages whose own `engines` floor is above ours, each with the version that was proven on Node 20 by the
 * tests named in docs/decisions/034: another version (or another package) must be proven the same way first.
 */
const ACCEPTED_ABOVE_OUR_FLOOR: Record<string, string> = { 'pg-boss': '12.35.0' }

const parse = (version: string) => (version.match(/\d+/g) ?? []).slice(0, 3).map(Number)
const compare = (a: number[], b: number[]) =>
  [0, 1, 2].map((i) => (a[i] ?? 0) - (b[i] ?? 0)).find((d) => d !== 0) ?? 0

/** The lowest Node a range admits, from each `||` alternative's first version (enough for engines fields). */
const floorOf = (range: string) =>
  range
    .split('||')
    .map((alternative) => parse(alternative))
    .filter((version) => version.length > 0)
    .sort(compare)[0] ?? [0]

describe('engines', () => {
  const root = manifest(ROOT)
  const ourFloor = floorOf(root.engines?.node ?? '')

  it('the running Node is inside our engines range', () => {
    expect(root.engines?.node).toBe('>=20.19')
    expect(compare(parse(process.versions.node), ourFloor)).toBeGreaterThanOrEqual(0)
  })

  it('no dependency asks for a newer Node than we declare, but the ones ADR 034 accepted, at their version', () => {
    const above = Object.keys({ ...root.dependencies, ...root.devDependencies })
      .map((name) => ({ name, ...manifest(path.join(ROOT, 'node_modules', name)) }))
      .filter(({ engines }) => engines?.node && compare(floorOf(engines.node), ourFloor) > 0)
    expect(Object.fromEntries(above.map(({ name, version }) => [name, version]))).toEqual(
      ACCEPTED_ABOVE_OUR_FLOOR,
    )
  })
})
