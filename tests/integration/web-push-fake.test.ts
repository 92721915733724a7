import webpush from 'web-push'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebPushFake, type WebPushFake } from '../fakes/web-push-server'

const subject = 'mailto:alerts@example.com'

describe('web push fake, through the web-push library', () => {
  let fake: WebPushFake
  const vapid = webpush.generateVAPIDKeys()
  const send = (subscription: webpush.PushSubscription, keys = vapid) =>
    webpush.sendNotification(subscription, JSON.stringify({ title: 'x' }), {
      vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: 60,
      topic: 'inbox',
      agent: fake.agent,
    })
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'sent',
      (error: unknown) => (error instanceof webpush.WebPushError ? error.statusCode : error),
    )

  beforeAll(async () => {
    fake = await startWebPushFake()
  })
  afterAll(() => fake.close())

  it('decrypts and records what was sent', async () => {
    const subscription = fake.newSubscription({ applicationServerKey: vapid.publicKey })
    const result = await send(subscription)
    expect(result.statusCode).toBe(201)
    const [delivery] = await fake.waitFor(1)
    expect(delivery).toEqual({
      endpoint: subscription.endpoint,
      payload: '{"title":"x"}',
      ttl: 60,
      urgency: 'normal',
      topic: 'inbox',
      vapidSubject: subject,
    })
  })

  it('refuses a bad VAPID signature (401) and another server key than the subscription’s (403)', async () => {
    const subscription = fake.newSubscription({ applicationServerKey: vapid.publicKey })
    const other = webpush.generateVAPIDKeys()
    // web-push signs with the private key and announces the public one: a mismatched pair does not verify.
    expect(
      await refusal(send(subscription, { publicKey: vapid.publicKey, privateKey: other.privateKey })),
    ).toBe(401)
    expect(await refusal(send(subscription, other))).toBe(403)
    expect(fake.received.map((d) => d.endpoint)).not.toContain(subscription.endpoint)
  })

  it('answers 410 Gone once the browser unsubscribed, and 404 for an unknown endpoint', async () => {
    const subscription = fake.newSubscription()
    fake.expire(subscription.endpoint)
    expect(await refusal(send(subscription))).toBe(410)
    expect(await refusal(send({ ...subscription, endpoint: `${fake.url}/push/unknown` }))).toBe(404)
  })
})
