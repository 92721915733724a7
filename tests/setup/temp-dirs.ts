import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll } from 'vitest'

/**
 * Temporary folders for one test file, all removed when the file's tests are done: left behind, a CI machine that
 * is not wiped between runs gathers hundreds of them (this one's disk once filled up with test folders).
 */
export function tempDirsOf(prefix: string): () => string {
  const made: string[] = []
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix))
    made.push(dir)
    return dir
  }
}
