import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '~/db/client.server'
import { channels } from '~/db/schema'
import { FACEBOOK_PERMISSIONS, MESSENGER_WEBHOOK_FIELDS } from '~/lib/channels/facebook'
import { facebookPagesSchema } from '~/lib/channels/connect-schemas'
import { decryptSecret } from '~/utils/crypto.server'
import { startGraphFake, type GraphFake } from '../../../tests/fakes/graph-server'
import { openTestDatabase } from '../../../tests/setup/database'
import {
  graphId,
  META_SERVICE_APP,
  metaServiceDeps,
  seedFacebookUser,
  type FakePage,
} from '../../../tests/setup/meta-tenant'
import { newOwnerScope } from '../../../tests/setup/scope'
import { listChannels, toChannelView } from './channels.server'
import { deleteChannel } from './delete-channel.server'
import { connectFacebookPages } from './facebook.server'
import type { PlatformDeps } from './platform-deps.server'
import { setChannelWebhook } from './webhook.server'

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
const posted = (pages: FakePage[]) => ({
  pages: pages.map(({ id, name, category, tasks, accessToken }) => ({
    id,
    name,
    category,
    tasks,
    accessToken,
  })),
})
const callsTo = (path: string) => fake.calls.filter((call) => call.path.includes(path)).length

describe('connectFacebookPages', () => {
  it('checks each page token, stores one channel per page with its metadata and the token encrypted, subscribes each page', async () => {
    const scope = await newScope()
    const { pages } = seedFacebookUser(fake, 2)
    const connected = await connectFacebookPages(scope, posted(pages), deps)
    expect(connected).toHaveLength(2)
    for (const [i, channel] of connected.entries()) {
      const page = pages[i]
      expect(channel).toMatchObject({
        platformName: 'facebook',
        channelType: 'facebook_page',
        platformChannelId: page.id,
        status: 'active',
        webhookSubscribed: true,
        metadata: {
          name: page.name,
          category: 'Shopping & retail',
          tasks: 'MANAGE,MESSAGING',
          pageId: page.id,
        },
      })
      expect(decryptSecret(channel.accessTokenEncrypted ?? '', deps.encryptionKey)).toBe(page.accessToken)
      expect(JSON.stringify(toChannelView(channel, deps))).not.toContain(page.accessToken)
      expect(toChannelView(channel, deps).webhookUrl).toBe(`${deps.publicUrl}/webhooks/meta`)
      expect(fake.state.pageSubscriptions[page.id]).toEqual([...MESSENGER_WEBHOOK_FIELDS])
      expect(fake.calls).toContainEqual(
        expect.objectContaining({
          path: '/debug_token',
          query: expect.objectContaining({ input_token: page.accessToken }),
        }),
      )
    }
    // Connected in one statement, the pages share a creation time: listed in a stable order, not the login's.
    const listed = (await listChannels(scope)).map((c) => c.platformChannelId)
    expect(listed.toSorted()).toEqual(pages.map((p) => p.id).toSorted())
    expect((await listChannels(scope)).map((c) => c.platformChannelId)).toEqual(listed)
  })

  it('with the user token: exchanges it for a long-lived one and takes the page tokens Graph gives for it', async () => {
    const scope = await newScope()
    const { userToken, pages } = seedFacebookUser(fake, 1)
    const before = callsTo('/oauth/access_token')
    const [channel] = await connectFacebookPages(
      scope,
      { ...posted(pages), userAccessToken: userToken },
      deps,
    )
    expect(callsTo('/oauth/access_token')).toBe(before + 1)
    const exchange = fake.calls.findLast((call) => call.path === '/oauth/access_token')
    expect(exchange?.query).toMatchObject({ grant_type: 'fb_exchange_token', fb_exchange_token: userToken })
    const accounts = fake.calls.findLast((call) => call.path === '/me/accounts')
    expect(accounts).toBeDefined()
    expect(channel.platformChannelId).toBe(pages[0].id)
    expect(decryptSecret(channel.accessTokenEncrypted ?? '', deps.encryptionKey)).toBe(pages[0].accessToken)
  })

  it('refuses a page the user token does not administer', async () => {
    const scope = await newScope()
    const { userToken } = seedFacebookUser(fake, 1)
    const stranger = seedFacebookUser(fake, 1).pages
    await expect(
      connectFacebookPages(scope, { ...posted(stranger), userAccessToken: userToken }, deps),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Facebook connection is no longer valid',
    })
    expect(await listChannels(scope)).toEqual([])
  })

  it('refuses unknown tokens, a token of another page, a user token posted as a page token and another app’s token; stores nothing', async () => {
    const scope = await newScope()
    const { userToken, pages } = seedFacebookUser(fake, 2)
    const [a, b] = pages
    const attempts = [
      { ...a, accessToken: 'EAAunknown-S3CRET' },
      { ...a, accessToken: b.accessToken },
      { ...a, accessToken: userToken },
    ]
    for (const page of attempts) {
      const subscriptions = callsTo('/subscribed_apps')
      await expect(connectFacebookPages(scope, posted([b, page]), deps)).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        message: 'Facebook connection is no longer valid',
        details: { pages: [`Facebook connection is no longer valid (page ${a.id})`] },
      })
      expect(callsTo('/subscribed_apps')).toBe(subscriptions)
    }
    fake.enqueue('/debug_token', {
      status: 200,
      body: { data: { is_valid: true, app_id: '999', type: 'PAGE', profile_id: a.id, scopes: [] } },
    })
    await expect(connectFacebookPages(scope, posted([a]), deps)).rejects.toMatchObject({
      message: 'Facebook connection is no longer valid',
    })
    expect(await listChannels(scope)).toEqual([])
    expect(fake.state.pageSubscriptions[a.id]).toBeUndefined()
  })

  it('a page connected already (in any organization) refuses the whole request: nothing half stored', async () => {
    const [first, second] = [await newScope(), await newScope()]
    const { pages } = seedFacebookUser(fake, 2)
    await connectFacebookPages(first, posted([pages[0]]), deps)
    await expect(connectFacebookPages(second, posted(pages), deps)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This channel is already connected',
    })
    expect(await listChannels(second)).toEqual([])
    expect(fake.state.pageSubscriptions[pages[1].id]).toBeUndefined()
  })

  it('a page of this organization whose token died is reconnected with its new token; a live one is still refused', async () => {
    const scope = await newScope()
    const { userToken, pages } = seedFacebookUser(fake, 1)
    const [channel] = await connectFacebookPages(scope, posted(pages), deps)
    await expect(connectFacebookPages(scope, posted(pages), deps)).rejects.toMatchObject({ code: 'CONFLICT' })
    await handle.db
      .update(channels)
      .set({
        status: 'error',
        statusReason: 'Facebook connection is no longer valid',
        webhookSubscribed: false,
      })
      .where(eq(channels.id, channel.id))
    // The page's token was rotated: Graph knows only the new one.
    const renewed = { ...pages[0], accessToken: `EAApage-S3CRET-renewed-${graphId()}` }
    fake.seed({
      users: { [userToken]: { id: graphId(), permissions: [...FACEBOOK_PERMISSIONS], pages: [renewed] } },
    })
    const subscriptions = callsTo(`/${renewed.id}/subscribed_apps`)

    const [reconnected] = await connectFacebookPages(scope, posted([renewed]), deps)
    expect(reconnected).toMatchObject({ id: channel.id, status: 'active', webhookSubscribed: true })
    expect(decryptSecret(reconnected.accessTokenEncrypted!, deps.encryptionKey)).toBe(renewed.accessToken)
    expect(callsTo(`/${renewed.id}/subscribed_apps`)).toBe(subscriptions + 1)
    expect(await listChannels(scope)).toHaveLength(1)
    // Alive again: connecting it once more is refused, in this organization and in another.
    await expect(connectFacebookPages(scope, posted([renewed]), deps)).rejects.toMatchObject({
      code: 'CONFLICT',
    })
    await expect(connectFacebookPages(await newScope(), posted([renewed]), deps)).rejects.toMatchObject({
      code: 'CONFLICT',
    })
  })

  it('a subscription that fails undoes the request: pages unsubscribed again, no channel stored; the spec code table decides the message', async () => {
    const scope = await newScope()
    const { pages } = seedFacebookUser(fake, 2)
    fake.enqueue(`/${pages[1].id}/subscribed_apps`, {
      status: 403,
      error: { code: 200, message: '(#200) Permissions error' },
    })
    await expect(connectFacebookPages(scope, posted(pages), deps)).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      message: 'Authentication token is missing',
      details: { platformCode: ['AUTH_TOKEN_MISSING'], retryable: ['false'] },
    })
    expect(await listChannels(scope)).toEqual([])
    expect(fake.state.pageSubscriptions[pages[0].id]).toBeUndefined()
    expect(fake.calls.findLast((c) => c.path === `/${pages[0].id}/subscribed_apps`)?.method).toBe('DELETE')
  })

  it('retries retryable failures with the spec policy, and gives up with the spec message after 3 retries', async () => {
    const scope = await newScope()
    const { pages } = seedFacebookUser(fake, 1)
    const path = `/${pages[0].id}/subscribed_apps`
    fake.enqueue(path, { status: 429, headers: { 'retry-after': '0' } })
    fake.enqueue(path, { status: 503, headers: { 'retry-after': '0' } })
    const [channel] = await connectFacebookPages(scope, posted(pages), deps)
    expect(channel.webhookSubscribed).toBe(true)
    expect(fake.calls.filter((c) => c.path === path)).toHaveLength(3)

    const other = seedFacebookUser(fake, 1).pages
    const otherPath = `/${other[0].id}/subscribed_apps`
    for (let i = 0; i < 4; i++) fake.enqueue(otherPath, { status: 429, headers: { 'retry-after': '0' } })
    await expect(connectFacebookPages(scope, posted(other), deps)).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      message: 'Rate limit exceeded',
      details: { platformCode: ['RATE_LIMITED'], retryable: ['true'] },
    })
    expect(fake.calls.filter((c) => c.path === otherPath && c.method === 'POST')).toHaveLength(4)
    expect((await listChannels(scope)).map((c) => c.platformChannelId)).toEqual([pages[0].id])
  })

  it('a backend failure says "Failed to create channels in backend" and subscribes nothing', async () => {
    const scope = await newScope()
    const { pages } = seedFacebookUser(fake, 1)
    // PostgreSQL's jsonb refuses U+0000: the insert fails in the database itself.
    const page = { ...posted(pages).pages[0], name: 'Acme\u0000Store' }
    await expect(connectFacebookPages(scope, { pages: [page] }, deps)).rejects.toMatchObject({
      code: 'SERVER_ERROR',
      message: 'Failed to create channels in backend',
    })
    expect(fake.state.pageSubscriptions[page.id]).toBeUndefined()
  })

  it('refuses at once when the Meta app is not configured, naming what to set', async () => {
    const scope = await newScope()
    const { pages } = seedFacebookUser(fake, 1)
    const before = fake.calls.length
    const unconfigured = { ...deps, meta: { ...deps.meta, configured: false } }
    await expect(connectFacebookPages(scope, posted(pages), unconfigured)).rejects.toMatchObject({
      code: 'NOT_CONFIGURED',
      message: expect.stringContaining('META_APP_ID and META_APP_SECRET'),
    })
    expect(fake.calls.length).toBe(before)
  })

  it('the schema asks for at least one page with the spec message', () => {
    const none = facebookPagesSchema.safeParse({ pages: [] })
    const missing = facebookPagesSchema.safeParse({})
    const message =
      'No Facebook pages found. You need to be an admin of at least one Facebook page to use this feature.'
    expect(none.error?.issues[0].message).toBe(message)
    expect(missing.error?.issues[0].message).toBe(message)
    const noToken = facebookPagesSchema.safeParse({ pages: [{ id: graphId(), name: 'A', accessToken: ' ' }] })
    expect(noToken.error?.issues[0].message).toBe('No access token found')
  })
})

describe('Facebook webhook switch and delete', () => {
  it('off removes the page subscription, on restores it; a refused token marks the channel error', async () => {
    const scope = await newScope()
    const { pages } = seedFacebookUser(fake, 1)
    const [channel] = await connectFacebookPages(scope, posted(pages), deps)
    const off = await setChannelWebhook(scope, channel.id, false, deps)
    expect(off.webhookSubscribed).toBe(false)
    expect(fake.state.pageSubscriptions[pages[0].id]).toBeUndefined()
    const on = await setChannelWebhook(scope, channel.id, true, deps)
    expect(on.webhookSubscribed).toBe(true)
    expect(fake.state.pageSubscriptions[pages[0].id]).toEqual([...MESSENGER_WEBHOOK_FIELDS])

    fake.enqueue(`/${pages[0].id}/subscribed_apps`, {
      status: 400,
      error: { code: 100, message: '(#100) Invalid parameter' },
    })
    await expect(setChannelWebhook(scope, channel.id, false, deps)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: '(#100) Invalid parameter',
    })
    expect((await listChannels(scope))[0]).toMatchObject({ status: 'active', webhookSubscribed: true })

    fake.enqueue(`/${pages[0].id}/subscribed_apps`, {
      status: 400,
      error: { code: 190, message: 'Error validating access token' },
    })
    await expect(setChannelWebhook(scope, channel.id, false, deps)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Facebook connection is no longer valid',
    })
    const [row] = await handle.db.select().from(channels).where(eq(channels.id, channel.id))
    expect(row).toMatchObject({
      status: 'error',
      statusReason: 'Facebook connection is no longer valid',
      webhookSubscribed: true,
    })
  })

  it('another organization cannot switch or delete the channel', async () => {
    const [scope, other] = [await newScope(), await newScope()]
    const { pages } = seedFacebookUser(fake, 1)
    const [channel] = await connectFacebookPages(scope, posted(pages), deps)
    await expect(setChannelWebhook(other, channel.id, false, deps)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect(deleteChannel(other, channel.id, deps)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(fake.state.pageSubscriptions[pages[0].id]).toBeDefined()
  })

  it('delete releases the page subscription; a dead token only warns and the channel still goes', async () => {
    const scope = await newScope()
    const { pages } = seedFacebookUser(fake, 2)
    const [first, second] = await connectFacebookPages(scope, posted(pages), deps)
    expect(await deleteChannel(scope, first.id, deps)).toEqual({})
    expect(fake.state.pageSubscriptions[pages[0].id]).toBeUndefined()

    fake.enqueue(`/${pages[1].id}/subscribed_apps`, { status: 400, error: { code: 190 } })
    const { warning } = await deleteChannel(scope, second.id, deps)
    expect(warning).toBe('Authentication token is invalid or expired')
    expect(await listChannels(scope)).toEqual([])
  })
})
