import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { decryptSecret, encryptSecret, matchesSecretHash, randomSecret, sha256 } from '~/utils/crypto.server'

const key = randomBytes(32).toString('hex')

describe('secrets at rest', () => {
  it('round-trips, never contains the plaintext, and differs every time', () => {
    const token = '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi'
    const a = encryptSecret(token, key)
    const b = encryptSecret(token, key)
    expect(a).not.toContain(token)
    expect(a).not.toBe(b)
    expect(decryptSecret(a, key)).toBe(token)
  })

  it('refuses a tampered value or another key', () => {
    const sealed = encryptSecret('secret', key)
    const parts = sealed.split(':')
    parts[3] = Buffer.from('other').toString('base64url')
    expect(() => decryptSecret(parts.join(':'), key)).toThrow()
    expect(() => decryptSecret(sealed, randomBytes(32).toString('hex'))).toThrow()
    expect(() => decryptSecret('plain', key)).toThrow('Not an encrypted secret')
  })

  it('matches a presented secret against its hash', () => {
    const secret = randomSecret()
    expect(matchesSecretHash(secret, sha256(secret))).toBe(true)
    expect(matchesSecretHash(secret + 'x', sha256(secret))).toBe(false)
    expect(matchesSecretHash(null, sha256(secret))).toBe(false)
    expect(matchesSecretHash(secret, null)).toBe(false)
  })
})
