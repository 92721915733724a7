import { createHash } from 'node:crypto'

/** A file's SHA-256 in hex: how the fakes record what they were sent, and how tests compare bytes. */
export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
