import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto'

const VERSION = 'v1'

/** AES-256-GCM with a random 96-bit IV: `v1:<iv>:<tag>:<ciphertext>` (base64url parts). */
export function encryptSecret(plaintext: string, keyHex: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join(':')
}

/** Throws when the value was tampered with or made with another key. */
export function decryptSecret(sealed: string, keyHex: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(':')
  if (version !== VERSION || !iv || !tag || ciphertext === undefined)
    throw new Error('Not an encrypted secret')
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), Buffer.from(iv, 'base64url'))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
    'utf8',
  )
}

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

/** Compares a presented secret with a stored SHA-256 in constant time. */
export function matchesSecretHash(presented: string | null, storedHash: string | null): boolean {
  if (!presented || !storedHash) return false
  const a = Buffer.from(sha256(presented), 'hex')
  const b = Buffer.from(storedHash, 'hex')
  return a.length === b.length && timingSafeEqual(a, b)
}
