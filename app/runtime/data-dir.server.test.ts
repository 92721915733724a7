import { spawnSync } from 'node:child_process'
import { chmodSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { dataDirProblem } from '~/runtime/data-dir.server'
import { tempDirsOf } from '../../tests/setup/temp-dirs'

const tempDir = tempDirsOf('replypilot-data-dir-')

/** The image's user: a root-owned folder mounted at /app/data is read-only to it. */
const IMAGE_USER = 1000

/**
 * The check as another user sees it. Tests run as root, whom mode bits do not stop, so as root the check runs in a
 * child process under the image's user id; otherwise in this process.
 */
function problemAsImageUser(dir: string): string | undefined {
  if (process.getuid?.() !== 0) return dataDirProblem(dir)
  const module = pathToFileURL(path.resolve('app/runtime/data-dir.server.ts')).href
  const child = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { dataDirProblem } = await import(${JSON.stringify(module)})
process.stdout.write(JSON.stringify(dataDirProblem(${JSON.stringify(dir)}) ?? null))`,
    ],
    { uid: IMAGE_USER, gid: IMAGE_USER, encoding: 'utf8', env: { ...process.env, HOME: tmpdir() } },
  )
  if (child.status !== 0) throw new Error(`the check's process failed: ${child.stderr}`)
  return JSON.parse(child.stdout) ?? undefined
}

describe('dataDirProblem', () => {
  it('accepts a writable folder and leaves nothing behind', () => {
    const dir = tempDir()
    expect(dataDirProblem(dir)).toBeUndefined()
    expect(readdirSync(dir)).toEqual([])
  })

  it('creates a folder that does not exist yet', () => {
    const dir = path.join(tempDir(), 'data', 'nested')
    expect(dataDirProblem(dir)).toBeUndefined()
    expect(readdirSync(dir)).toEqual([])
  })

  it('explains a folder that cannot be made: its parent is a file', () => {
    const file = path.join(tempDir(), 'not-a-folder')
    writeFileSync(file, '')
    const dir = path.join(file, 'data')
    const problem = dataDirProblem(dir)
    expect(problem).toContain(`The data folder ${dir} cannot be written to`)
    expect(problem).toContain('ENOTDIR')
    expect(problem).toContain('chown -R 1000:1000')
    expect(problem).toContain('named volume')
    expect(problem).not.toContain('\n')
  })

  it('explains a read-only folder, as a root-owned bind mount is to the image user', () => {
    const dir = tempDir()
    chmodSync(dir, 0o555)
    const problem = problemAsImageUser(dir)
    expect(problem).toContain(`The data folder ${dir} cannot be written to`)
    expect(problem).toContain('EACCES')
    expect(problem).toContain(`user id ${process.getuid?.() === 0 ? IMAGE_USER : process.getuid?.()}`)
  })
})
