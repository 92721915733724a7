import { mkdirSync, mkdtempSync, rmdirSync } from 'node:fs'
import path from 'node:path'

/**
 * Why the data folder cannot be used, in words for whoever started the process; undefined when it can. It tries a
 * real write (a folder made and removed) rather than asking access(2): root passes every permission check yet
 * still fails on a read-only file system, and a mounted folder's owner is what matters, not its mode bits.
 */
export function dataDirProblem(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true })
    rmdirSync(mkdtempSync(path.join(dir, '.write-check-')))
    return undefined
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'an error'
    const user = process.getuid?.()
    const who = user === undefined ? 'this process' : `this process (user id ${user})`
    return (
      `The data folder ${dir} cannot be written to by ${who}: ${code}. ReplyPilot keeps its generated secrets ` +
      'and the embedded database there. Make the folder writable by that user, or set DATA_DIR to one it can ' +
      'write. In Docker, where the app runs as user 1000: run `chown -R 1000:1000` on the host folder mounted ' +
      'there, or mount a named volume instead (docker run -v replypilot-data:/app/data ...).'
    )
  }
}
