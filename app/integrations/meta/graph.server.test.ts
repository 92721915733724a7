import { createServer } from 'node:net'
import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../../tests/fakes/documents'
import { startGraphFake, type GraphFake } from '../../../tests/fakes/graph-server'
import { sha256Of } from '../../../tests/fakes/hash'
import { photo } from '../../../tests/fakes/photo'
import type { OutboundFile } from '../outbound-file'
import { PlatformError, withPlatformRetries } from '../platform-errors'
import { FACEBOOK_PERMISSIONS, MESSENGER_WEBHOOK_FIELDS } from '~/lib/channels/facebook'
import { GraphApiError, type GraphConfig } from './graph-fetch.server'
import { createGraphClient } from './graph.server'
import { MESSENGER_PROFILE_TIMEOUT_MS } from './messenger.server'

const APP_ID = '1234567890'
const APP_SECRET = 'app-S3CRET-3f9a1c'
const USER_TOKEN = 'EAAuser-S3CRET-1'
const PAGE_TOKEN = 'EAApage-S3CRET-1001'
const OTHER_PAGE_TOKEN = 'EAApage-S3CRET-1002'
const BUSINESS_TOKEN = 'EAAbiz-S3CRET-1'
const SECRETS = [APP_SECRET, USER_TOKEN, PAGE_TOKEN, OTHER_PAGE_TOKEN, BUSINESS_TOKEN, 'S3CRET']

let fake: GraphFake
let codes = 0
/** A fresh single-use Embedded Signup code for one test. */
function newCode(): string {
  const code = `code-S3CRET-${++codes}`
  fake.seed({ whatsappCodes: { [code]: BUSINESS_TOKEN } })
  return code
}

beforeAll(async () => {
  fake = await startGraphFake({
    appId: APP_ID,
    appSecret: APP_SECRET,
    seed: {
      users: {
        [USER_TOKEN]: {
          id: '501',
          permissions: [...FACEBOOK_PERMISSIONS],
          pages: [
            { id: '1001', name: 'Acme Store', category: 'Shopping & retail', accessToken: PAGE_TOKEN },
            { id: '1002', name: 'Acme Help', tasks: ['MESSAGING'], accessToken: OTHER_PAGE_TOKEN },
          ],
        },
        'EAAuser-S3CRET-partial': {
          id: '502',
          permissions: ['public_profile', 'pages_show_list', 'email'],
          declined: ['pages_messaging'],
        },
      },
      businessTokens: [BUSINESS_TOKEN],
      phoneNumbers: {
        '2001': { verified_name: 'Acme', display_phone_number: '+1 555-010-0001', wabaId: '3001' },
      },
      wabas: { '3001': { name: 'Acme WABA', currency: 'USD', timezone_id: '1' } },
    },
  })
})
afterAll(() => fake.close())

const client = (overrides: Partial<GraphConfig> = {}) =>
  createGraphClient({
    graphRoot: fake.graphRoot,
    version: 'v23.0',
    appId: APP_ID,
    appSecret: APP_SECRET,
    timeoutMs: 5_000,
    ...overrides,
  })

/** The calls a test made, from this point on. */
function callsFrom(before: number) {
  return fake.calls.slice(before)
}

/** Runs the call, expects a GraphApiError that holds no secret anywhere, and returns it. */
async function failure(call: Promise<unknown>, extraSecrets: string[] = []): Promise<GraphApiError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  if (!(error instanceof GraphApiError)) throw new Error(`expected a GraphApiError, got ${String(error)}`)
  expect(error).toBeInstanceOf(PlatformError)
  const surfaces = [error.message, error.stack ?? '', JSON.stringify(error), String(error)]
  for (const secret of [...SECRETS, ...extraSecrets]) {
    for (const surface of surfaces) expect(surface).not.toContain(secret)
  }
  return error
}

describe('Facebook', () => {
  it('debugToken reads a user token, a page token, and reports an unknown one as invalid', async () => {
    const before = fake.calls.length
    const user = await client().debugToken(USER_TOKEN)
    expect(user).toMatchObject({ isValid: true, type: 'USER', appId: APP_ID, userId: '501' })
    expect(user.scopes).toEqual(expect.arrayContaining(['pages_messaging', 'pages_manage_metadata']))
    expect(user.expiresAt).toEqual(new Date(1_900_000_000 * 1000))

    const page = await client().debugToken(PAGE_TOKEN)
    expect(page).toMatchObject({ isValid: true, type: 'PAGE', pageId: '1001', expiresAt: null })

    expect(await client().debugToken('EAAunknown')).toMatchObject({ isValid: false, scopes: [] })
    // The input token is a parameter; the app token (id|secret) travels in the Authorization header only.
    const [call] = callsFrom(before)
    expect(call).toMatchObject({ method: 'GET', path: '/debug_token', query: { input_token: USER_TOKEN } })
    expect(call.query.access_token).toBeUndefined()
  })

  it('debugToken with wrong app credentials fails without naming the secret', async () => {
    const error = await failure(client({ appSecret: 'wrong-S3CRET' }).debugToken(USER_TOKEN), [
      'wrong-S3CRET',
    ])
    expect(error.code).toBe('AUTH_TOKEN_INVALID')
    expect(error.message).toContain('META_APP_SECRET')
  })

  it('exchangeForLongLivedToken returns a token that acts for the same person', async () => {
    const before = fake.calls.length
    const { accessToken, expiresIn } = await client().exchangeForLongLivedToken(USER_TOKEN)
    expect(accessToken).not.toBe(USER_TOKEN)
    expect(expiresIn).toBeGreaterThan(0)
    expect(callsFrom(before)[0]).toMatchObject({
      path: '/oauth/access_token',
      query: { grant_type: 'fb_exchange_token', client_id: APP_ID, fb_exchange_token: USER_TOKEN },
    })
    const pages = await client().getPages(accessToken)
    expect(pages.map((p) => p.id)).toEqual(['1001', '1002'])
  })

  it('exchangeForLongLivedToken refuses an invalid token with AUTH_TOKEN_INVALID', async () => {
    const error = await failure(client().exchangeForLongLivedToken('EAAexpired-S3CRET'))
    expect(error).toMatchObject({ code: 'AUTH_TOKEN_INVALID', platform: 'facebook', graphCode: 190 })
    expect(error.message).toBe('Authentication token is invalid or expired')
    expect(error.retryable).toBe(false)
  })

  it('getPages lists the pages with their tokens, category and tasks', async () => {
    expect(await client().getPages(USER_TOKEN)).toEqual([
      {
        id: '1001',
        name: 'Acme Store',
        category: 'Shopping & retail',
        tasks: ['MANAGE', 'CREATE_CONTENT', 'MODERATE', 'MESSAGING'],
        accessToken: PAGE_TOKEN,
      },
      {
        id: '1002',
        name: 'Acme Help',
        category: 'Business',
        tasks: ['MESSAGING'],
        accessToken: OTHER_PAGE_TOKEN,
      },
    ])
  })

  it('getPage reads name and category with the page token', async () => {
    expect(await client().getPage(PAGE_TOKEN, '1001')).toEqual({
      id: '1001',
      name: 'Acme Store',
      category: 'Shopping & retail',
    })
  })

  it('subscribes a page to the spec fields, and unsubscribes it', async () => {
    expect(MESSENGER_WEBHOOK_FIELDS).toEqual([
      'messages',
      'messaging_postbacks',
      'message_deliveries',
      'message_reads',
      'message_echoes',
    ])
    await client().subscribePageToApp(OTHER_PAGE_TOKEN, '1002')
    expect(fake.state.pageSubscriptions['1002']).toEqual([...MESSENGER_WEBHOOK_FIELDS])
    await client().subscribePageToApp(OTHER_PAGE_TOKEN, '1002', ['messages'])
    expect(fake.state.pageSubscriptions['1002']).toEqual(['messages'])
    await client().unsubscribePageFromApp(OTHER_PAGE_TOKEN, '1002')
    expect(fake.state.pageSubscriptions['1002']).toBeUndefined()
  })

  it('sendMessengerText replies with messaging_type RESPONSE', async () => {
    const before = fake.calls.length
    const sent = await client().sendMessengerText(PAGE_TOKEN, '1001', {
      recipientId: '9001',
      text: 'Hi there',
    })
    expect(sent.recipientId).toBe('9001')
    expect(fake.messages.find((m) => m.id === sent.messageId)).toMatchObject({
      platform: 'messenger',
      from: '1001',
      to: '9001',
      text: 'Hi there',
      messagingType: 'RESPONSE',
    })
    expect(callsFrom(before)[0]).toMatchObject({
      method: 'POST',
      path: '/1001/messages',
      body: { recipient: { id: '9001' }, messaging_type: 'RESPONSE', message: { text: 'Hi there' } },
    })
    expect(callsFrom(before)[0].query.access_token).toBeUndefined()
  })

  it('sendMessengerTyping sends the typing_on sender action', async () => {
    const before = fake.messages.length
    await client().sendMessengerTyping(PAGE_TOKEN, '1001', '9002')
    expect(fake.messages.slice(before)).toEqual([
      expect.objectContaining({ platform: 'messenger', from: '1001', to: '9002', senderAction: 'typing_on' }),
    ])
  })

  it('getMessengerProfile reads the name the page may see, asking for the name only', async () => {
    fake.seed({
      profiles: {
        '9101': {
          pageId: '1001',
          first_name: 'Ann',
          last_name: 'Lee',
          profile_pic: 'https://cdn.example/a.jpg',
        },
        '9102': { pageId: '1001', first_name: 'Bo' },
        '9103': { pageId: '1001', first_name: 'Cy', readable: false },
      },
    })
    const before = fake.calls.length
    expect(await client().getMessengerProfile(PAGE_TOKEN, '9101')).toEqual({
      firstName: 'Ann',
      lastName: 'Lee',
    })
    expect(await client().getMessengerProfile(PAGE_TOKEN, '9102')).toEqual({ firstName: 'Bo' })
    expect(callsFrom(before)[0]).toMatchObject({
      method: 'GET',
      path: '/9101',
      query: { fields: 'first_name,last_name' },
    })
    // The page's token only: another page's PSID is not found, an unreadable profile is refused.
    const otherPage = await failure(client().getMessengerProfile(OTHER_PAGE_TOKEN, '9101'))
    expect(otherPage).toMatchObject({ status: 400, graphCode: 100, graphSubcode: 33, retryable: false })
    const unreadable = await failure(client().getMessengerProfile(PAGE_TOKEN, '9103'))
    expect(unreadable).toMatchObject({ status: 400, graphCode: 100, retryable: false })
  })

  it('getGrantedPermissions checks the spec list', async () => {
    expect(FACEBOOK_PERMISSIONS).toHaveLength(8)
    expect(await client().getGrantedPermissions(USER_TOKEN)).toMatchObject({ valid: true, missing: [] })
    const partial = await client().getGrantedPermissions('EAAuser-S3CRET-partial')
    expect(partial.valid).toBe(false)
    expect(partial.granted).toEqual(['public_profile', 'pages_show_list', 'email'])
    expect(partial.missing).toEqual([
      'pages_messaging',
      'pages_read_engagement',
      'pages_manage_metadata',
      'pages_manage_posts',
      'pages_read_user_content',
    ])
  })

  it('an invalid token is AUTH_TOKEN_INVALID, not retryable', async () => {
    const error = await failure(client().getPages('EAAnot-a-S3CRET-token'))
    expect(error).toMatchObject({ code: 'AUTH_TOKEN_INVALID', status: 400, graphCode: 190, retryable: false })
    expect(error.fbtraceId).toBeTruthy()
  })
})

describe('WhatsApp', () => {
  it('exchangeCode turns an Embedded Signup code into the business token, once', async () => {
    const code = newCode()
    const before = fake.calls.length
    expect(await client().exchangeCode(code)).toMatchObject({ accessToken: BUSINESS_TOKEN })
    expect(callsFrom(before)[0]).toMatchObject({
      path: '/oauth/access_token',
      query: { client_id: APP_ID, code },
    })

    const reused = await failure(client().exchangeCode(code), [code])
    expect(reused).toMatchObject({ code: 'VALIDATION_ERROR', platform: 'whatsapp', graphCode: 100 })
  })

  it('registerPhoneNumber sends messaging_product and the PIN', async () => {
    await client().registerPhoneNumber(BUSINESS_TOKEN, '2001', '123456')
    expect(fake.state.registrations['2001']).toEqual({ pin: '123456' })
  })

  it('registerPhoneNumber refuses a PIN that is not 6 digits before any request', async () => {
    const before = fake.calls.length
    const error = await failure(client().registerPhoneNumber(BUSINESS_TOKEN, '2001', '12ab'), ['12ab'])
    expect(error.code).toBe('VALIDATION_ERROR')
    expect(fake.calls.length).toBe(before)
  })

  it('subscribeAppToWaba subscribes the app to the WABA, unsubscribeAppFromWaba stops it', async () => {
    await client().subscribeAppToWaba(BUSINESS_TOKEN, '3001')
    expect(fake.state.wabaSubscriptions).toContain('3001')
    await client().unsubscribeAppFromWaba(BUSINESS_TOKEN, '3001')
    expect(fake.state.wabaSubscriptions).not.toContain('3001')
    expect(fake.calls.at(-1)).toMatchObject({ method: 'DELETE', path: '/3001/subscribed_apps' })
    await client().subscribeAppToWaba(BUSINESS_TOKEN, '3001')
  })

  it('getPhoneNumber and getWaba read the details the connect answer carries', async () => {
    expect(await client().getPhoneNumber(BUSINESS_TOKEN, '2001')).toEqual({
      id: '2001',
      verified_name: 'Acme',
      display_phone_number: '+1 555-010-0001',
    })
    expect(await client().getWaba(BUSINESS_TOKEN, '3001')).toEqual({
      id: '3001',
      name: 'Acme WABA',
      currency: 'USD',
      timezone_id: '1',
    })
  })

  it('sendWhatsAppText sends a text message and returns its wamid', async () => {
    const before = fake.calls.length
    const { messageId } = await client().sendWhatsAppText(BUSINESS_TOKEN, '2001', {
      to: '15550100002',
      text: 'Hello',
    })
    expect(messageId).toMatch(/^wamid\./)
    expect(fake.messages.find((m) => m.id === messageId)).toMatchObject({
      platform: 'whatsapp',
      from: '2001',
      to: '15550100002',
      text: 'Hello',
    })
    expect(callsFrom(before)[0].body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '15550100002',
      type: 'text',
      text: { body: 'Hello' },
    })
  })

  it('an unknown business token is AUTH_TOKEN_INVALID on the whatsapp platform', async () => {
    const error = await failure(client().getPhoneNumber('EAAbiz-S3CRET-unknown', '2001'), [
      'EAAbiz-S3CRET-unknown',
    ])
    expect(error).toMatchObject({ code: 'AUTH_TOKEN_INVALID', platform: 'whatsapp' })
  })
})

describe('files sent to customers', () => {
  const png = new Uint8Array(photo())
  const pdf = makePdf([['Invoice 12']])
  const picture: OutboundFile = {
    bytes: png,
    contentType: 'image/png',
    fileName: 'order.png',
    kind: 'photo',
    caption: 'Your order',
  }
  const invoice: OutboundFile = {
    bytes: pdf,
    contentType: 'application/pdf',
    fileName: 'Счёт № 12 "final".pdf',
    kind: 'file',
  }
  const uploaded = (file: OutboundFile) => ({
    fileName: file.fileName,
    contentType: file.contentType,
    size: file.bytes.byteLength,
    sha256: sha256Of(file.bytes),
  })

  it('sendWhatsAppFile uploads the file to the number, then sends it by its media id', async () => {
    const before = fake.calls.length
    const shown = await client().sendWhatsAppFile(BUSINESS_TOKEN, '2001', {
      to: '15550100002',
      file: picture,
    })
    const sent = fake.messages.find((m) => m.id === shown.messageId)
    expect(sent).toMatchObject({ platform: 'whatsapp', from: '2001', to: '15550100002' })
    expect(sent?.attachment).toEqual({
      ...uploaded(picture),
      type: 'image',
      mediaId: expect.any(String),
      caption: 'Your order',
    })
    const [upload, message] = callsFrom(before)
    expect(upload).toMatchObject({
      method: 'POST',
      path: '/2001/media',
      body: { messaging_product: 'whatsapp', type: 'image/png', file: uploaded(picture) },
    })
    expect(upload.query.appsecret_proof).toBeDefined()
    expect(message.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '15550100002',
      type: 'image',
      image: { id: sent?.attachment?.mediaId, caption: 'Your order' },
    })

    const document = await client().sendWhatsAppFile(BUSINESS_TOKEN, '2001', {
      to: '15550100002',
      file: invoice,
    })
    const attachment = fake.messages.find((m) => m.id === document.messageId)?.attachment
    expect(attachment).toEqual({
      ...uploaded(invoice),
      type: 'document',
      mediaId: expect.any(String),
      filename: invoice.fileName,
    })
  })

  it("sendWhatsAppFile: WhatsApp's refusals are not retryable, and a failed upload sends nothing", async () => {
    const before = fake.messages.length
    const send = (file: OutboundFile, token = BUSINESS_TOKEN) =>
      client().sendWhatsAppFile(token, '2001', { to: '15550100002', file })
    // JPEG and PNG pictures: 5 MB at most; a type WhatsApp does not take is refused too.
    const large = await failure(send({ ...picture, bytes: new Uint8Array(5 * 1024 * 1024 + 1) }))
    expect(large).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, graphCode: 100, retryable: false })
    const zip = await failure(send({ ...invoice, contentType: 'application/zip', fileName: 'a.zip' }))
    expect(zip).toMatchObject({ code: 'VALIDATION_ERROR', retryable: false })
    expect(zip.message).toContain("Received file of type 'application/zip'")

    const unknown = await failure(send(picture, 'EAAbiz-S3CRET-unknown'), ['EAAbiz-S3CRET-unknown'])
    expect(unknown).toMatchObject({ code: 'AUTH_TOKEN_INVALID', platform: 'whatsapp', retryable: false })
    fake.enqueue('/2001/media', { status: 503 })
    const down = await failure(send(picture))
    expect(down).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryable: true })
    expect(fake.messages.length).toBe(before)
  })

  it('sendMessengerFile uploads the file with the message in one request, without the caption', async () => {
    const before = fake.calls.length
    const shown = await client().sendMessengerFile(PAGE_TOKEN, '1001', { recipientId: '9001', file: picture })
    expect(shown.recipientId).toBe('9001')
    expect(fake.messages.find((m) => m.id === shown.messageId)).toEqual({
      id: shown.messageId,
      platform: 'messenger',
      from: '1001',
      to: '9001',
      messagingType: 'RESPONSE',
      attachment: { ...uploaded(picture), type: 'image' },
    })
    const [call] = callsFrom(before)
    expect(call.body).toEqual({
      recipient: '{"id":"9001"}',
      messaging_type: 'RESPONSE',
      message: '{"attachment":{"type":"image","payload":{"is_reusable":false}}}',
      filedata: uploaded(picture),
    })
    expect(JSON.stringify(call)).not.toContain('Your order')

    const tagged = await client().sendMessengerFile(PAGE_TOKEN, '1001', {
      recipientId: '9001',
      file: invoice,
      tag: 'HUMAN_AGENT',
    })
    expect(fake.messages.find((m) => m.id === tagged.messageId)).toMatchObject({
      messagingType: 'MESSAGE_TAG',
      tag: 'HUMAN_AGENT',
      attachment: { ...uploaded(invoice), type: 'file' },
    })

    const refused = await failure(
      client().sendMessengerFile('EAApage-S3CRET-unknown', '1001', { recipientId: '9001', file: invoice }),
      ['EAApage-S3CRET-unknown'],
    )
    expect(refused).toMatchObject({ code: 'AUTH_TOKEN_INVALID', platform: 'facebook', retryable: false })
  })
})

describe('errors', () => {
  it('maps Graph rate limits to RATE_LIMITED, retryable, whatever the status', async () => {
    fake.enqueue('/1001/messages', { status: 429 })
    const limited = await failure(
      client().sendMessengerText(PAGE_TOKEN, '1001', { recipientId: '9001', text: 'x' }),
    )
    expect(limited).toMatchObject({ code: 'RATE_LIMITED', status: 429, graphCode: 4, retryable: true })
    expect(limited.message).toBe('Rate limit exceeded')

    for (const graphCode of [4, 17, 32, 613, 130429]) {
      fake.enqueue('/2001/messages', {
        status: 400,
        error: { code: graphCode, message: `(#${graphCode}) limit` },
      })
      const error = await failure(
        client().sendWhatsAppText(BUSINESS_TOKEN, '2001', { to: '1555', text: 'x' }),
      )
      expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 400, graphCode, retryable: true })
    }
  })

  it('honours Retry-After when Graph sends one, and invents none', async () => {
    fake.enqueue('/me/accounts', { status: 429, headers: { 'retry-after': '7' } })
    expect(await failure(client().getPages(USER_TOKEN))).toMatchObject({
      code: 'RATE_LIMITED',
      retryAfterMs: 7000,
    })
    fake.enqueue('/me/accounts', { status: 400, body: { error: { message: 'slow down', code: 17 } } })
    expect((await failure(client().getPages(USER_TOKEN))).retryAfterMs).toBeUndefined()
  })

  it('maps 5xx to the retryable server codes', async () => {
    fake.enqueue('/1001/messages', { status: 500 })
    const server = await failure(client().sendMessengerTyping(PAGE_TOKEN, '1001', '9001'))
    expect(server).toMatchObject({ code: 'SERVER_ERROR', status: 500, retryable: true })
    fake.enqueue('/3001', { status: 503 })
    const unavailable = await failure(client().getWaba(BUSINESS_TOKEN, '3001'))
    expect(unavailable).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryable: true })
  })

  it('keeps a 400 message from Graph, scrubbed of any token it echoes', async () => {
    fake.enqueue('/1001/messages', {
      status: 400,
      error: {
        code: 100,
        error_subcode: 2018001,
        message: `(#100) No matching user found for ${PAGE_TOKEN}`,
      },
    })
    const error = await failure(
      client().sendMessengerText(PAGE_TOKEN, '1001', { recipientId: '1', text: 'x' }),
    )
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', graphCode: 100, graphSubcode: 2018001 })
    expect(error.message).toBe('(#100) No matching user found for [redacted]')
  })

  it('a Graph error that echoes the token is AUTH_TOKEN_INVALID with the spec message', async () => {
    fake.enqueue('/me/permissions', {
      status: 400,
      error: { code: 190, message: `Error validating access token: ${USER_TOKEN} has expired` },
    })
    const error = await failure(client().getGrantedPermissions(USER_TOKEN))
    expect(error.message).toBe('Authentication token is invalid or expired')
  })

  it('an answer that does not match the documented shape is UNKNOWN_ERROR', async () => {
    fake.enqueue('/2001/register', { status: 200, body: { success: false } })
    const error = await failure(client().registerPhoneNumber(BUSINESS_TOKEN, '2001', '654321'))
    expect(error).toMatchObject({ code: 'UNKNOWN_ERROR', status: 200, retryable: false })
    expect(error.message).toContain('POST /2001/register')
  })

  it('a closed port is NETWORK_ERROR, retryable', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address()
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 1))
      })
    })
    const error = await failure(client({ graphRoot: `http://127.0.0.1:${port}` }).getPages(USER_TOKEN))
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', retryable: true, platform: 'facebook' })
    expect(error.message).toBe('Network error - unable to reach server')
  })

  it('a request that outlives timeoutMs is TIMEOUT_ERROR, retryable', async () => {
    fake.enqueue('/2001/messages', { status: 200, hang: true })
    const started = Date.now()
    const call = client({ timeoutMs: 200 }).sendWhatsAppText(BUSINESS_TOKEN, '2001', {
      to: '1555',
      text: 'x',
    })
    const error = await failure(call)
    expect(error).toMatchObject({ code: 'TIMEOUT_ERROR', retryable: true, platform: 'whatsapp' })
    expect(Date.now() - started).toBeLessThan(3_000)
  })

  it('a profile read gives up sooner than the client: the next message of its conversation waits behind it', async () => {
    fake.seed({ profiles: { '9104': { pageId: '1001', first_name: 'Di' } } })
    fake.enqueue('/9104', { status: 200, hang: true })
    const started = Date.now()
    const error = await failure(client({ timeoutMs: 60_000 }).getMessengerProfile(PAGE_TOKEN, '9104'))
    expect(error).toMatchObject({ code: 'TIMEOUT_ERROR', platform: 'facebook' })
    const took = Date.now() - started
    expect(took).toBeGreaterThanOrEqual(MESSENGER_PROFILE_TIMEOUT_MS - 100)
    expect(took).toBeLessThan(MESSENGER_PROFILE_TIMEOUT_MS + 2_000)
  })

  it('refuses an id that could address another path, before any request', async () => {
    const before = fake.calls.length
    for (const id of ['../me', '1001/messages', '1001?fields=x', '']) {
      const error = await failure(client().getPage(PAGE_TOKEN, id))
      expect(error.code).toBe('VALIDATION_ERROR')
    }
    expect(fake.calls.length).toBe(before)
  })

  it('composes with withPlatformRetries: a 500 then a success is one result', async () => {
    fake.enqueue('/1001/messages', { status: 500 })
    const attempts: number[] = []
    const sent = await withPlatformRetries(
      (attempt) => {
        attempts.push(attempt)
        return client().sendMessengerText(PAGE_TOKEN, '1001', { recipientId: '9003', text: 'retried' })
      },
      { sleep: async () => {} },
    )
    expect(attempts).toEqual([1, 2])
    expect(fake.messages.filter((m) => m.id === sent.messageId)).toHaveLength(1)
  })
})

describe('the Graph fake, driven over HTTP as an e2e test in another process would', () => {
  const control = (path: string, body?: unknown) =>
    fetch(`${fake.graphRoot}/__fake/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })

  it('seeds state, queues a failure, and reports calls and messages', async () => {
    const token = 'EAAuser-S3CRET-http'
    const seeded = await control('seed', {
      users: {
        [token]: { id: '503', pages: [{ id: '1003', name: 'Seeded', accessToken: 'EAApage-S3CRET-1003' }] },
      },
    })
    expect(seeded.status).toBe(200)
    expect((await client().getPages(token)).map((p) => p.name)).toEqual(['Seeded'])

    expect((await control('next', { path: '/1003/messages', status: 503 })).status).toBe(200)
    const error = await failure(
      client().sendMessengerText('EAApage-S3CRET-1003', '1003', { recipientId: '7', text: 'a' }),
    )
    expect(error.code).toBe('SERVICE_UNAVAILABLE')
    await client().sendMessengerText('EAApage-S3CRET-1003', '1003', { recipientId: '7', text: 'b' })

    const messages: unknown = await (await control('messages')).json()
    expect(messages).toEqual(expect.arrayContaining([expect.objectContaining({ from: '1003', text: 'b' })]))
    const calls: unknown = await (await control('calls')).json()
    expect(calls).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/1003/messages' })]))
    expect((await control('next', { status: 'not a number' })).status).toBe(400)
  })
})

describe('/me/accounts paging (issue 14)', () => {
  it('follows paging.next to the last page: 250 pages in three requests of 100', async () => {
    const token = 'EAAuser-S3CRET-many'
    const pages = Array.from({ length: 250 }, (_, i) => ({
      id: String(10_000 + i),
      name: `Branch ${i + 1}`,
      accessToken: `EAApage-S3CRET-${10_000 + i}`,
    }))
    fake.seed({ users: { [token]: { id: '504', pages } } })
    const before = fake.calls.length
    const listed = await client().getPages(token)
    expect(listed.map((p) => p.id)).toEqual(pages.map((p) => p.id))
    expect(listed[249]).toMatchObject({ name: 'Branch 250', accessToken: 'EAApage-S3CRET-10249' })
    const calls = callsFrom(before)
    expect(calls.map((c) => [c.path, c.query.limit, c.query.fields])).toEqual(
      Array(3).fill(['/me/accounts', '100', 'id,name,category,tasks,access_token']),
    )
    // Graph's `next` carries the token in its query; ours goes in the Authorization header only.
    expect(calls.every((c) => c.query.access_token === undefined)).toBe(true)
  })

  it('does not follow a next link to another host', async () => {
    const token = 'EAAuser-S3CRET-elsewhere'
    fake.seed({
      users: { [token]: { id: '505', pages: [{ id: '1', name: 'A', accessToken: 'EAApage-S3CRET-x' }] } },
    })
    fake.enqueue('/me/accounts', {
      status: 200,
      body: {
        data: [{ id: '1', name: 'A', access_token: 'EAApage-S3CRET-x' }],
        paging: { next: 'https://graph.example.net/v23.0/me/accounts?after=x' },
      },
    })
    const before = fake.calls.length
    expect((await client().getPages(token)).map((p) => p.id)).toEqual(['1'])
    expect(callsFrom(before)).toHaveLength(1)
  })
})

describe('appsecret_proof (issue 14)', () => {
  let strict: GraphFake
  beforeAll(async () => {
    strict = await startGraphFake({
      appId: APP_ID,
      appSecret: APP_SECRET,
      requireAppSecretProof: true,
      seed: {
        users: {
          [USER_TOKEN]: {
            id: '501',
            permissions: [...FACEBOOK_PERMISSIONS],
            pages: [{ id: '1001', name: 'Acme Store', accessToken: PAGE_TOKEN }],
          },
        },
        businessTokens: [BUSINESS_TOKEN],
        phoneNumbers: {
          '2001': { verified_name: 'Acme', display_phone_number: '+1 555-010-0001', wabaId: '3001' },
        },
        wabas: { '3001': { name: 'Acme WABA' } },
      },
    })
  })
  afterAll(() => strict.close())
  const strictClient = () =>
    createGraphClient({ graphRoot: strict.graphRoot, version: 'v23.0', appId: APP_ID, appSecret: APP_SECRET })
  const proof = (token: string) => createHmac('sha256', APP_SECRET).update(token).digest('hex')

  it('carries the HMAC-SHA256 of the token on every call made with a user, page or business token', async () => {
    const graph = strictClient()
    const before = strict.calls.length
    await graph.getPages(USER_TOKEN)
    await graph.getGrantedPermissions(USER_TOKEN)
    await graph.getPage(PAGE_TOKEN, '1001')
    await graph.subscribePageToApp(PAGE_TOKEN, '1001')
    await graph.sendMessengerTyping(PAGE_TOKEN, '1001', '42')
    await graph.sendMessengerText(PAGE_TOKEN, '1001', { recipientId: '42', text: 'hi' })
    await graph.unsubscribePageFromApp(PAGE_TOKEN, '1001')
    await graph.getPhoneNumber(BUSINESS_TOKEN, '2001')
    await graph.getWaba(BUSINESS_TOKEN, '3001')
    await graph.subscribeAppToWaba(BUSINESS_TOKEN, '3001')
    await graph.sendWhatsAppText(BUSINESS_TOKEN, '2001', { to: '15550001', text: 'hi' })
    const calls = strict.calls.slice(before)
    expect(calls).toHaveLength(11)
    const tokens = [USER_TOKEN, USER_TOKEN, ...Array(5).fill(PAGE_TOKEN), ...Array(4).fill(BUSINESS_TOKEN)]
    expect(calls.map((c) => c.query.appsecret_proof)).toEqual(tokens.map(proof))
  })

  it('sends none with the app token (debug_token), which holds the secret itself', async () => {
    const before = strict.calls.length
    expect((await strictClient().debugToken(PAGE_TOKEN)).isValid).toBe(true)
    expect(strict.calls[before].query.appsecret_proof).toBeUndefined()
  })

  it('the fake refuses a call without the proof, or with a wrong one, as Graph does with the switch on', async () => {
    const get = (query: string) =>
      fetch(`${strict.graphRoot}/v23.0/me/accounts?${query}`, {
        headers: { authorization: `Bearer ${USER_TOKEN}` },
      })
    const missing = await get('')
    expect(missing.status).toBe(400)
    expect(await missing.json()).toMatchObject({
      error: { code: 100, message: expect.stringMatching(/appsecret_proof/) },
    })
    expect((await get(`appsecret_proof=${proof('another token')}`)).status).toBe(400)
    expect((await get(`appsecret_proof=${proof(USER_TOKEN)}`)).status).toBe(200)
    // A client without the proof fails, as it did before issue 14 against such an app.
    const plain = await fetch(`${strict.graphRoot}/v23.0/1001?fields=id`, {
      headers: { authorization: `Bearer ${PAGE_TOKEN}` },
    })
    expect(plain.status).toBe(400)
  })
})
