import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  randomBytes,
  verify,
  type ECDH,
} from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Agent, createServer } from 'node:https'
import { buffer } from 'node:stream/consumers'

/**
 * A browser vendor's Web Push service (RFC 8030) for tests, on https://127.0.0.1 with a self-signed certificate:
 * the `web-push` library only speaks HTTPS, as real push services do. Pass `agent` as web-push's `agent` option
 * (or trust `ca`, e.g. another process through NODE_EXTRA_CA_CERTS).
 * `newSubscription()` plays the browser: a PushSubscription JSON whose keys (P-256 ECDH key, 16-byte auth secret)
 * the fake keeps, so it can decrypt what arrives. POST /push/:id must carry `TTL`, a VAPID `Authorization: vapid
 * t=<JWT>, k=<key>` (RFC 8292: ES256, `aud` the endpoint's origin, `exp` in the next 24 hours, `sub`) and, with a
 * body, `Content-Encoding: aes128gcm`; the body is decrypted (RFC 8291 + RFC 8188; none gives payload '') and the
 * delivery recorded in `received`, answered 201.
 * Refusals, as real services answer: unknown endpoint 404, `expire(endpoint)`d (the browser unsubscribed) 410,
 * missing or invalid VAPID 401, a VAPID key other than the subscription's `applicationServerKey` 403, a body
 * over 4096 bytes 413, bad headers or an undecryptable body 400.
 */

export type FakeSubscription = { endpoint: string; keys: { p256dh: string; auth: string } }
export type PushDelivery = {
  endpoint: string
  payload: string
  ttl: number
  urgency?: string
  topic?: string
  vapidSubject: string
}
export type WebPushFake = {
  /** https://127.0.0.1:PORT (no trailing slash). */
  url: string
  /** The server's self-signed certificate (PEM). */
  ca: string
  /** An agent trusting `ca`, for web-push's `agent` option. */
  agent: Agent
  received: PushDelivery[]
  /** With `applicationServerKey` (base64url VAPID public key), pushes signed with another key get 403. */
  newSubscription(options?: { applicationServerKey?: string }): FakeSubscription
  /** From now on the endpoint answers 410 Gone. */
  expire(endpoint: string): void
  /** Resolves with `received` once it holds at least `count` deliveries. */
  waitFor(count: number, timeoutMs?: number): Promise<PushDelivery[]>
  close(): Promise<void>
}

type Subscription = { endpoint: string; ecdh: ECDH; auth: Buffer; serverKey?: string; expired: boolean }

// Valid 2020–2120, for 127.0.0.1 and localhost; a test certificate, not a secret.
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgVhuvMvKXkQXleh+x
P4xdyDBceSiWb3ipw+gY0n8WejihRANCAASE4RWo389am2JAsvrWg7v9yVOitEuv
QmcM6uSuNp01Xa+p6e/wvLRbOdTnre56zcEmhOmyxir72J5Ce0KwurwA
-----END PRIVATE KEY-----
`
const CERT = `-----BEGIN CERTIFICATE-----
MIIBZDCCAQmgAwIBAgIUfW1CIRIc1+CZWeIlWR1F/7b4b3owCgYIKoZIzj0EAwIw
GDEWMBQGA1UEAwwNd2ViLXB1c2gtZmFrZTAgFw0yMDAxMDEwMDAwMDBaGA8yMTIw
MDEwMTAwMDAwMFowGDEWMBQGA1UEAwwNd2ViLXB1c2gtZmFrZTBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABIThFajfz1qbYkCy+taDu/3JU6K0S69CZwzq5K42nTVd
r6np7/C8tFs51Oet7nrNwSaE6bLGKvvYnkJ7QrC6vACjLzAtMBoGA1UdEQQTMBGH
BH8AAAGCCWxvY2FsaG9zdDAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0kA
MEYCIQCeX+5dq5b5/WyjooYuhnKBtvmb6DGRkkkCElmkxFZz1AIhANw4KkAnRKrb
ibnH1M09XnWZtMqU8WzlQ4ZmK71e+i0q
-----END CERTIFICATE-----
`
const MAX_BODY = 4096
const URGENCIES = ['very-low', 'low', 'normal', 'high']

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

const b64url = (text: string) => Buffer.from(text, 'base64url')
const hmac = (key: Buffer, ...data: Buffer[]) =>
  createHmac('sha256', key).update(Buffer.concat(data)).digest()
function jwtPart(part: string): Record<string, unknown> {
  try {
    return JSON.parse(b64url(part).toString()) as Record<string, unknown>
  } catch {
    throw new Refusal(401, 'Malformed VAPID JWT')
  }
}

/** Checks the VAPID header (RFC 8292) against the endpoint's origin; returns the JWT's `sub` and the key `k`. */
function checkVapid(authorization: string | undefined, origin: string): { subject: string; key: string } {
  const params = /^vapid\s+(.+)$/i.exec(authorization ?? '')?.[1]
  if (!params) throw new Refusal(401, 'Missing VAPID Authorization')
  const fields = new Map(params.split(',').map((part) => part.trim().split('=', 2) as [string, string]))
  const token = fields.get('t') ?? ''
  const key = fields.get('k') ?? ''
  const [header, claims, signature] = token.split('.')
  const raw = b64url(key)
  if (!header || !claims || !signature || raw.length !== 65 || raw[0] !== 4) {
    throw new Refusal(401, 'Malformed VAPID t or k')
  }
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  })
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    b64url(signature),
  )
  if (!signed || jwtPart(header).alg !== 'ES256') {
    throw new Refusal(401, 'VAPID signature does not verify')
  }
  const { aud, exp, sub } = jwtPart(claims)
  const now = Date.now() / 1000
  if (aud !== origin) throw new Refusal(401, `VAPID aud ${String(aud)} is not ${origin}`)
  if (typeof exp !== 'number' || exp <= now || exp > now + 24 * 3600) {
    throw new Refusal(401, 'VAPID exp is not within the next 24 hours')
  }
  if (typeof sub !== 'string' || sub === '') throw new Refusal(401, 'VAPID sub is missing')
  return { subject: sub, key }
}

/** Decrypts an aes128gcm body (RFC 8188) sent to the subscription as RFC 8291 says. */
function decrypt(body: Buffer, subscription: Subscription): string {
  const salt = body.subarray(0, 16)
  const rs = body.length >= 21 ? body.readUInt32BE(16) : 0
  const idlen = body[20]
  if (body.length < 21 || rs < 18 || idlen !== 65) throw new Refusal(400, 'Malformed aes128gcm header')
  const senderKey = body.subarray(21, 21 + idlen)
  const ecdhSecret = subscription.ecdh.computeSecret(senderKey)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), subscription.ecdh.getPublicKey(), senderKey])
  const ikm = hmac(hmac(subscription.auth, ecdhSecret), keyInfo, Buffer.of(1))
  const prk = hmac(salt, ikm)
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0'), Buffer.of(1)).subarray(0, 16)
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0'), Buffer.of(1)).subarray(0, 12)
  const records = body.subarray(21 + idlen)
  if (records.length === 0) throw new Refusal(400, 'No record')
  const plain: Buffer[] = []
  for (let start = 0, seq = 0; start < records.length; start += rs, seq++) {
    const record = records.subarray(start, start + rs)
    const iv = Buffer.from(nonce)
    iv.writeUInt32BE((iv.readUInt32BE(8) ^ seq) >>> 0, 8) // nonce XOR the record's sequence number
    const decipher = createDecipheriv('aes-128-gcm', cek, iv)
    decipher.setAuthTag(record.subarray(-16))
    const data = Buffer.concat([decipher.update(record.subarray(0, -16)), decipher.final()])
    // data || delimiter (2 in the last record, 1 before) || zero padding
    let end = data.length - 1
    while (end >= 0 && data[end] === 0) end--
    const last = start + rs >= records.length
    if (data[end] !== (last ? 2 : 1)) throw new Refusal(400, 'Bad padding delimiter')
    plain.push(data.subarray(0, end))
  }
  return Buffer.concat(plain).toString('utf8')
}

export async function startWebPushFake(): Promise<WebPushFake> {
  const subscriptions = new Map<string, Subscription>()
  const received: PushDelivery[] = []
  const waiters = new Set<() => void>()
  let url = ''

  function accept(req: IncomingMessage, body: Buffer): PushDelivery {
    const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1]
    const subscription = id === undefined ? undefined : subscriptions.get(id)
    if (req.method !== 'POST' || !subscription) throw new Refusal(404, 'No such subscription')
    if (subscription.expired) throw new Refusal(410, 'Push subscription has unsubscribed or expired')
    const vapid = checkVapid(req.headers.authorization, url)
    if (subscription.serverKey !== undefined && vapid.key !== subscription.serverKey) {
      throw new Refusal(403, 'VAPID key is not the subscription’s applicationServerKey')
    }
    const ttl = Number(req.headers.ttl)
    if (req.headers.ttl === undefined || !Number.isInteger(ttl) || ttl < 0)
      throw new Refusal(400, 'Missing TTL')
    const urgency = req.headers.urgency as string | undefined
    if (urgency !== undefined && !URGENCIES.includes(urgency)) throw new Refusal(400, 'Bad Urgency')
    if (body.length > MAX_BODY) throw new Refusal(413, 'Payload Too Large')
    let payload = '' // a push without a body is allowed: the service worker is woken with no data
    if (body.length > 0 || req.headers['content-encoding'] !== undefined) {
      if (req.headers['content-encoding'] !== 'aes128gcm')
        throw new Refusal(400, 'Content-Encoding is not aes128gcm')
      try {
        payload = decrypt(body, subscription)
      } catch (error) {
        throw error instanceof Refusal ? error : new Refusal(400, `Cannot decrypt: ${String(error)}`)
      }
    }
    const topic = req.headers.topic as string | undefined
    return { endpoint: subscription.endpoint, payload, ttl, urgency, topic, vapidSubject: vapid.subject }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    try {
      const delivery = accept(req, await buffer(req))
      received.push(delivery)
      for (const wake of waiters) wake()
      res.writeHead(201, { Location: `/message/${randomBytes(8).toString('hex')}` }).end()
    } catch (error) {
      const status = error instanceof Refusal ? error.status : 500
      res
        .writeHead(status, { 'Content-Type': 'text/plain' })
        .end(String(error instanceof Error ? error.message : error))
    }
  }

  const server = createServer({ key: KEY, cert: CERT }, (req, res) => void handle(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('The fake is not listening on TCP')
  url = `https://127.0.0.1:${address.port}`
  const agent = new Agent({ ca: CERT })

  return {
    url,
    ca: CERT,
    agent,
    received,
    newSubscription(options = {}) {
      const id = randomBytes(12).toString('base64url')
      const ecdh = createECDH('prime256v1')
      ecdh.generateKeys()
      const auth = randomBytes(16)
      const endpoint = `${url}/push/${id}`
      subscriptions.set(id, { endpoint, ecdh, auth, serverKey: options.applicationServerKey, expired: false })
      return {
        endpoint,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      }
    },
    expire(endpoint) {
      const subscription = [...subscriptions.values()].find((s) => s.endpoint === endpoint)
      if (!subscription) throw new Error(`No subscription for ${endpoint}`)
      subscription.expired = true
    },
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return
          clearTimeout(timer)
          waiters.delete(check)
          resolve([...received])
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(
            new Error(`Expected ${count} push deliveries within ${timeoutMs} ms, got ${received.length}`),
          )
        }, timeoutMs)
        waiters.add(check)
        check()
      })
    },
    async close() {
      agent.destroy()
      const closed = new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())))
      server.closeAllConnections()
      return closed
    },
  }
}
