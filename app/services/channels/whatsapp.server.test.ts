import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { channels } from '~/db/schema'
import type { DatabaseHandle } from '~/db/client.server'
import { whatsappConnectSchema } from '~/lib/channels/connect-schemas'
import { decryptSecret } from '~/utils/crypto.server'
import { startGraphFake, type GraphFake } from '../../../tests/fakes/graph-server'
import { openTestDatabase } from '../../../tests/setup/database'
import {
  graphId,
  META_SERVICE_APP,
  metaServiceDeps,
  newSignupCode,
  seedWhatsAppNumber,
} from '../../../tests/setup/meta-tenant'
import { newOwnerScope } from '../../../tests/setup/scope'
import { getChannel, insertChannel, listChannels, toChannelView } from './channels.server'
import { deleteChannel } from './delete-channel.server'
import type { PlatformDeps } from './platform-deps.server'
import { setChannelWebhook } from './webhook.server'
import { connectWhatsApp } from './whatsapp.server'

let handle: DatabaseHandle
let fake: GraphFake
let deps: PlatformDeps
beforeAll(async () => {
  ;[handle, fake] = await Promise.all([openTestDatabase(), startGraphFake(META_SERVICE_APP)])
  deps = metaServiceDeps(fake)
})
afterAll(async () => {
  await Promise.all([handle.close(), fake.close()])
})

const newScope = () => newOwnerScope(handle.db)
const callsTo = (method: string, path: string) =>
  fake.calls.filter((call) => call.method === method && call.path === path).length

describe('connectWhatsApp', () => {
  it('exchanges the code, registers the number with the PIN, subscribes the WABA, reads the details and stores the channel', async () => {
    const scope = await newScope()
    const number = seedWhatsAppNumber(fake)
    const input = {
      code: number.code,
      wabaId: number.wabaId,
      phoneNumberId: number.phoneNumberId,
      pin: '123456',
    }
    const { channel, phoneDetails, wabaDetails } = await connectWhatsApp(scope, input, deps)
    expect(phoneDetails).toEqual({ verified_name: 'Acme Support', display_phone_number: number.display })
    expect(wabaDetails).toMatchObject({ id: number.wabaId, name: 'Acme WABA', currency: 'USD' })
    expect(channel).toMatchObject({
      platformName: 'whatsapp',
      channelType: 'whatsapp_number',
      platformChannelId: number.phoneNumberId,
      status: 'active',
      webhookSubscribed: true,
      metadata: {
        name: 'Acme Support',
        phoneNumber: number.display,
        wabaId: number.wabaId,
        wabaName: 'Acme WABA',
      },
    })
    expect(fake.state.registrations[number.phoneNumberId]).toEqual({ pin: '123456' })
    expect(fake.state.wabaSubscriptions).toContain(number.wabaId)
    expect(decryptSecret(channel.accessTokenEncrypted ?? '', deps.encryptionKey)).toBe(number.businessToken)
    const view = JSON.stringify(toChannelView(channel, deps))
    expect(view).not.toContain(number.businessToken)
    expect(view).not.toContain('123456')
  })

  it('without a PIN the number is taken as registered: no register call', async () => {
    const scope = await newScope()
    const number = seedWhatsAppNumber(fake)
    const { channel } = await connectWhatsApp(scope, { ...number, pin: undefined }, deps)
    expect(channel.platformChannelId).toBe(number.phoneNumberId)
    expect(callsTo('POST', `/${number.phoneNumberId}/register`)).toBe(0)
    expect(fake.state.registrations[number.phoneNumberId]).toBeUndefined()
  })

  it('a used or unknown code: "Failed to connect WhatsApp number" with Graph\'s reason, nothing stored', async () => {
    const scope = await newScope()
    const number = seedWhatsAppNumber(fake)
    await connectWhatsApp(scope, number, deps)
    const again = seedWhatsAppNumber(fake)
    await expect(connectWhatsApp(scope, { ...again, code: number.code }, deps)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Failed to connect WhatsApp number',
      details: { reason: ['This authorization code has been used.'] },
    })
    expect((await listChannels(scope)).map((c) => c.platformChannelId)).toEqual([number.phoneNumberId])
  })

  it('the code is exchanged once, never retried, even on a retryable failure', async () => {
    const scope = await newScope()
    const number = seedWhatsAppNumber(fake)
    const before = callsTo('GET', '/oauth/access_token')
    fake.enqueue('/oauth/access_token', { status: 503 })
    await expect(connectWhatsApp(scope, number, deps)).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      message: 'Failed to connect WhatsApp number',
      details: { reason: ['Service temporarily unavailable'], retryable: ['true'] },
    })
    expect(callsTo('GET', '/oauth/access_token')).toBe(before + 1)
    expect(await listChannels(scope)).toEqual([])
  })

  it('retries a retryable failure after the exchange (registration) and succeeds', async () => {
    const scope = await newScope()
    const number = seedWhatsAppNumber(fake)
    fake.enqueue(`/${number.phoneNumberId}/register`, { status: 500, headers: { 'retry-after': '0' } })
    const { channel } = await connectWhatsApp(scope, { ...number, pin: '654321' }, deps)
    expect(channel.webhookSubscribed).toBe(true)
    expect(callsTo('POST', `/${number.phoneNumberId}/register`)).toBe(2)
  })

  it('a number connected already is refused before the code is spent', async () => {
    const [first, second] = [await newScope(), await newScope()]
    const number = seedWhatsAppNumber(fake)
    await connectWhatsApp(first, number, deps)
    const code = newSignupCode(fake, number.businessToken)
    await expect(connectWhatsApp(second, { ...number, code }, deps)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This channel is already connected',
    })
    expect(fake.state.whatsappCodes[code]).toBe(number.businessToken)
  })

  it('a number of this organization whose token died is reconnected with a new code; a live one is still refused', async () => {
    const scope = await newScope()
    const number = seedWhatsAppNumber(fake)
    const { channel } = await connectWhatsApp(scope, number, deps)
    await handle.db.update(channels).set({ status: 'error' }).where(eq(channels.id, channel.id))
    const code = newSignupCode(fake, number.businessToken)
    const { channel: reconnected } = await connectWhatsApp(scope, { ...number, code }, deps)
    expect(reconnected).toMatchObject({ id: channel.id, status: 'active', webhookSubscribed: true })
    expect(await listChannels(scope)).toHaveLength(1)
    const again = newSignupCode(fake, number.businessToken)
    await expect(connectWhatsApp(scope, { ...number, code: again }, deps)).rejects.toMatchObject({
      code: 'CONFLICT',
    })
  })

  it('refuses at once when the Meta app is not configured', async () => {
    const scope = await newScope()
    const number = seedWhatsAppNumber(fake)
    const unconfigured = { ...deps, meta: { ...deps.meta, configured: false } }
    await expect(connectWhatsApp(scope, number, unconfigured)).rejects.toMatchObject({
      message: expect.stringContaining('META_APP_ID and META_APP_SECRET'),
    })
    expect(fake.state.whatsappCodes[number.code]).toBeDefined()
  })

  it('the schema: a code is required with the spec message; ids are digits; an empty PIN is none, another must be 6 digits', () => {
    const ids = { wabaId: graphId(), phoneNumberId: graphId() }
    expect(whatsappConnectSchema.safeParse(ids).error?.issues[0].message).toBe(
      'No authorization code received from WhatsApp signup',
    )
    expect(whatsappConnectSchema.safeParse({ ...ids, code: '  ' }).error?.issues[0].message).toBe(
      'No authorization code received from WhatsApp signup',
    )
    expect(whatsappConnectSchema.parse({ ...ids, code: 'c', pin: '' }).pin).toBeUndefined()
    expect(
      whatsappConnectSchema.safeParse({ ...ids, code: 'c', pin: '12345' }).error?.issues[0].message,
    ).toBe('The two-step verification PIN must be 6 digits')
    expect(
      whatsappConnectSchema.safeParse({ code: 'c', wabaId: '../x', phoneNumberId: '1' }).error?.issues[0]
        .message,
    ).toBe('WhatsApp signup failed')
  })
})

describe('WhatsApp webhook switch and delete', () => {
  it('the WABA subscription is shared by its numbers: it goes only with the last one switched off or deleted', async () => {
    const scope = await newScope()
    const first = seedWhatsAppNumber(fake)
    const second = seedWhatsAppNumber(fake, first.wabaId)
    const a = (await connectWhatsApp(scope, first, deps)).channel
    const b = (await connectWhatsApp(scope, second, deps)).channel

    expect((await setChannelWebhook(scope, a.id, false, deps)).webhookSubscribed).toBe(false)
    expect(fake.state.wabaSubscriptions).toContain(first.wabaId)
    expect(callsTo('DELETE', `/${first.wabaId}/subscribed_apps`)).toBe(0)

    expect(await deleteChannel(scope, b.id, deps)).toEqual({})
    expect(fake.state.wabaSubscriptions).not.toContain(first.wabaId)

    expect((await setChannelWebhook(scope, a.id, true, deps)).webhookSubscribed).toBe(true)
    expect(fake.state.wabaSubscriptions).toContain(first.wabaId)
    expect((await setChannelWebhook(scope, a.id, false, deps)).webhookSubscribed).toBe(false)
    expect(fake.state.wabaSubscriptions).not.toContain(first.wabaId)
  })

  it('a refused token marks the channel error; delete with a dead token only warns', async () => {
    const scope = await newScope()
    const number = seedWhatsAppNumber(fake)
    const { channel } = await connectWhatsApp(scope, number, deps)
    fake.enqueue(`/${number.wabaId}/subscribed_apps`, { status: 400, error: { code: 190 } })
    await expect(setChannelWebhook(scope, channel.id, true, deps)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'WhatsApp connection is no longer valid',
    })
    expect(await getChannel(scope, channel.id)).toMatchObject({ status: 'error' })

    fake.enqueue(`/${number.wabaId}/subscribed_apps`, { status: 400, error: { code: 190 } })
    expect(await deleteChannel(scope, channel.id, deps)).toEqual({
      warning: 'Authentication token is invalid or expired',
    })
    expect(await listChannels(scope)).toEqual([])
  })

  it('a platform without a connection strategy cannot have its webhook switched; another tenant gets 404', async () => {
    const [scope, other] = [await newScope(), await newScope()]
    const instagram = await insertChannel(scope, deps, {
      platformName: 'instagram',
      channelType: 'instagram_account',
      platformChannelId: graphId(),
      accessToken: 'EAAinsta-S3CRET',
      metadata: {},
    })
    await expect(setChannelWebhook(scope, instagram.id, true, deps)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'No connection strategy found for platform',
    })
    const number = seedWhatsAppNumber(fake)
    const { channel } = await connectWhatsApp(scope, number, deps)
    await expect(setChannelWebhook(other, channel.id, false, deps)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    expect(fake.state.wabaSubscriptions).toContain(number.wabaId)
  })
})
