import { createHmac } from 'node:crypto'
import { createServer } from 'node:http'
import { describe, expect, it } from 'vitest'
import { deliverSignedWebhook } from '../../../tests/fakes/graph-server'
import { signMetaPayload, verifyMetaSignature } from './signature.server'

const SECRET = 'app-secret-0123456789abcdef'
// Meta sends non-ASCII characters escaped (\u00e9), and signs those exact bytes.
const BODY = '{"object":"page","entry":[{"id":"1","messaging":[{"message":{"text":"caf\\u00e9"}}]}]}'

describe('signMetaPayload', () => {
  it('is sha256= and the hex HMAC-SHA256 of the raw body keyed by the app secret', () => {
    const expected = createHmac('sha256', SECRET).update(BODY).digest('hex')
    expect(signMetaPayload(BODY, SECRET)).toBe(`sha256=${expected}`)
    expect(signMetaPayload(Buffer.from(BODY), SECRET)).toBe(`sha256=${expected}`)
  })
})

describe('verifyMetaSignature', () => {
  const header = signMetaPayload(BODY, SECRET)

  it('accepts the signature of the exact body, as a string or a Buffer', () => {
    expect(verifyMetaSignature(BODY, header, SECRET)).toBe(true)
    expect(verifyMetaSignature(Buffer.from(BODY, 'utf8'), header, SECRET)).toBe(true)
  })

  it('accepts an upper-case prefix or hex digits and surrounding spaces', () => {
    const hex = header.slice('sha256='.length)
    expect(verifyMetaSignature(BODY, `SHA256=${hex.toUpperCase()}`, SECRET)).toBe(true)
    expect(verifyMetaSignature(BODY, ` ${header} `, SECRET)).toBe(true)
  })

  it('rejects a tampered body, including the same JSON serialized differently', () => {
    expect(verifyMetaSignature(BODY.replace('caf', 'cav'), header, SECRET)).toBe(false)
    expect(verifyMetaSignature(JSON.stringify(JSON.parse(BODY)), header, SECRET)).toBe(false)
    expect(verifyMetaSignature(`${BODY}\n`, header, SECRET)).toBe(false)
  })

  it('rejects a signature made with another secret, or an empty secret', () => {
    expect(verifyMetaSignature(BODY, signMetaPayload(BODY, 'another-secret'), SECRET)).toBe(false)
    expect(verifyMetaSignature(BODY, signMetaPayload(BODY, ''), '')).toBe(false)
  })

  it('rejects a missing or malformed header', () => {
    const hex = header.slice('sha256='.length)
    for (const bad of [
      null,
      undefined,
      '',
      'sha256=',
      hex,
      `sha1=${hex}`,
      `sha256=${'z'.repeat(64)}`,
      'sha256 = x',
    ]) {
      expect(verifyMetaSignature(BODY, bad, SECRET)).toBe(false)
    }
  })

  it('rejects a digest of a different length without throwing', () => {
    const hex = header.slice('sha256='.length)
    expect(verifyMetaSignature(BODY, `sha256=${hex.slice(0, 62)}`, SECRET)).toBe(false)
    expect(verifyMetaSignature(BODY, `sha256=${hex}00`, SECRET)).toBe(false)
    // The legacy SHA-1 header value (40 hex digits) under the SHA-256 prefix.
    const sha1 = createHmac('sha1', SECRET).update(BODY).digest('hex')
    expect(verifyMetaSignature(BODY, `sha256=${sha1}`, SECRET)).toBe(false)
  })
})

describe('deliverSignedWebhook (the fake Meta sender)', () => {
  it('posts escaped-unicode JSON that verifies over the raw bytes only', async () => {
    const received: Array<{ raw: Buffer; header: string | null }> = []
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        const raw = Buffer.concat(chunks)
        const header = req.headers['x-hub-signature-256']
        received.push({ raw, header: typeof header === 'string' ? header : null })
        res.writeHead(
          verifyMetaSignature(raw, typeof header === 'string' ? header : null, SECRET) ? 200 : 403,
        )
        res.end()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    const address = receiver.address()
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/webhooks/meta`
    try {
      const payload = { object: 'page', entry: [{ messaging: [{ message: { text: 'Grüße 👋' } }] }] }
      expect((await deliverSignedWebhook(url, payload, SECRET)).status).toBe(200)
      expect((await deliverSignedWebhook(url, payload, 'another-secret')).status).toBe(403)
      const raw = received[0].raw.toString('utf8')
      expect(raw).toContain('Gr\\u00fc\\u00dfe \\ud83d\\udc4b')
      expect(JSON.parse(raw)).toEqual(payload)
      // A receiver that re-serializes the parsed body would compute another signature.
      expect(verifyMetaSignature(JSON.stringify(payload), received[0].header, SECRET)).toBe(false)
    } finally {
      receiver.close()
    }
  })
})
