import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

/** The header Meta signs every webhook delivery with: `sha256=<hex HMAC-SHA256 of the raw body, keyed by the app secret>`. */
export const META_SIGNATURE_HEADER = 'x-hub-signature-256'

const PREFIX = 'sha256='
const HEX_DIGEST = /^[0-9a-f]{64}$/i

function digest(rawBody: Buffer | string, appSecret: string): Buffer {
  return createHmac('sha256', appSecret).update(rawBody).digest()
}

/**
 * The `X-Hub-Signature-256` value Meta would send for this body. The HMAC runs over the bytes as received: Meta
 * signs its escaped-unicode JSON, so a re-serialized `JSON.stringify(parsed)` would not match.
 */
export function signMetaPayload(rawBody: Buffer | string, appSecret: string): string {
  return PREFIX + digest(rawBody, appSecret).toString('hex')
}

/** Whether `header` is Meta's signature of exactly these bytes. Compares in constant time; never throws. */
export function verifyMetaSignature(
  rawBody: Buffer | string,
  header: string | null | undefined,
  appSecret: string,
): boolean {
  if (!header || !appSecret) return false
  const value = header.trim()
  if (value.slice(0, PREFIX.length).toLowerCase() !== PREFIX) return false
  const hex = value.slice(PREFIX.length)
  if (!HEX_DIGEST.test(hex)) return false
  const received = Buffer.from(hex, 'hex')
  const expected = digest(rawBody, appSecret)
  // timingSafeEqual throws on different lengths; the regex already pins 32 bytes, this keeps the guard local.
  return received.length === expected.length && timingSafeEqual(received, expected)
}

const sha256 = (value: string) => createHash('sha256').update(value).digest()

/** Whether the handshake's `hub.verify_token` is ours, compared in constant time; with none configured, never. */
export function matchesVerifyToken(received: string | null, expected: string | undefined): boolean {
  if (!expected || received === null) return false
  return timingSafeEqual(sha256(received), sha256(expected))
}
