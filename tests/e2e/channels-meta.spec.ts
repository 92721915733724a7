import { randomUUID } from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, test } from './helpers'
import { channelCard, flip, signUpWithOrganization } from './channel-helpers'
import { fakeSdkCalls, routeFakeFacebookSdk, setFakeFacebook } from './facebook-sdk-route'
import { E2E_META_APP } from './meta-app'
import {
  chooseAddChannel,
  FACEBOOK_PERMISSIONS,
  facebookUser,
  GRAPH_URL,
  graphCalls,
  graphId,
  graphState,
  whatsappNumber,
} from './meta-helpers'

/**
 * Facebook Page and WhatsApp connects on the Channels page, through the fake Facebook SDK (routed in place of
 * Meta's script) and the Graph fake (seeded over HTTP). Ids and tokens are unique per test: workers share the
 * fakes and the database.
 */

const banner = (page: Page) => page.getByRole('alert').filter({ hasText: 'Connection Error' })

async function expectBanner(page: Page, message: string) {
  await expect(banner(page)).toContainText(message)
  await banner(page).getByRole('button', { name: 'Dismiss connection error' }).click()
  await expect(banner(page)).toBeHidden()
}

test('connecting Facebook pages: login with the spec permissions, one card per page, webhook switch, delete logs out', async ({
  page,
}) => {
  const user = await facebookUser({
    pages: [
      { name: `Corner Bakery ${randomUUID().slice(0, 6)}`, category: 'Bakery' },
      { name: `Book Nook ${randomUUID().slice(0, 6)}`, category: 'Bookstore' },
    ],
  })
  const [bakery, books] = user.pages
  const sdk = await routeFakeFacebookSdk(page, { accessToken: user.token, graphRoot: GRAPH_URL })
  const warnings: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text())
  })
  await signUpWithOrganization(page)
  // The SDK is not part of the page: it loads when the person reaches for a Meta connect.
  expect(sdk.count).toBe(0)

  await chooseAddChannel(page, 'Facebook Page')
  await expect(page.getByText(/^2 Facebook pages connected successfully/)).toBeVisible()
  for (const { name } of [bakery, books]) {
    await expect(channelCard(page, name)).toBeVisible()
    await expect(channelCard(page, name)).toHaveAccessibleDescription(/Facebook Page/)
  }
  expect(sdk.count).toBe(1)
  const calls = await fakeSdkCalls(page)
  expect(calls.find((c) => c.method === 'init')?.options).toMatchObject({
    appId: E2E_META_APP.appId,
    version: 'v23.0',
  })
  expect(calls.find((c) => c.method === 'login')?.options).toMatchObject({
    scope: FACEBOOK_PERMISSIONS.join(','),
  })

  // The server checked each page token at Graph and subscribed each page to the app's webhooks.
  const seen = await graphCalls()
  for (const { id, accessToken } of [bakery, books]) {
    expect(seen.some((c) => c.path === '/debug_token' && c.query.input_token === accessToken)).toBe(true)
    expect(seen.some((c) => c.method === 'POST' && c.path === `/${id}/subscribed_apps`)).toBe(true)
  }
  expect((await graphState()).pageSubscriptions[bakery.id]).toEqual(
    expect.arrayContaining([
      'messages',
      'messaging_postbacks',
      'message_deliveries',
      'message_reads',
      'message_echoes',
    ]),
  )
  // No token reached the page, nor the app secret.
  const html = await page.content()
  const secrets = [user.token, bakery.accessToken, books.accessToken, E2E_META_APP.appSecret]
  for (const secret of secrets) expect(html).not.toContain(secret)

  // The webhook switch unsubscribes and subscribes the page again.
  await channelCard(page, bakery.name).click()
  const details = page.getByRole('dialog', { name: 'Channel Details' })
  await expect(details.getByText('Facebook', { exact: true })).toBeVisible()
  await expect(details.getByText('Bakery', { exact: true })).toBeVisible()
  const webhook = details.getByRole('switch', { name: 'Webhook Subscription' })
  await expect(webhook).toBeChecked()
  await flip(details, 'Webhook Subscription')
  await expect(webhook).not.toBeChecked()
  await expect.poll(async () => (await graphState()).pageSubscriptions[bakery.id]).toBeUndefined()
  await flip(details, 'Webhook Subscription')
  await expect(webhook).toBeChecked()
  await expect.poll(async () => (await graphState()).pageSubscriptions[bakery.id]).toContain('messages')
  // The switch is disabled until the change is saved; a link followed meanwhile could be lost (seen once in CI).
  await expect(webhook).toBeEnabled()

  // Deleting a page logs out of the SDK; a logout that fails is only warned about.
  await setFakeFacebook(page, { logoutFails: true })
  await details.getByRole('link', { name: 'Delete Channel' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete Channel' })
  await confirm.getByRole('button', { name: 'Delete Channel' }).click()
  await expect(confirm.getByText('Channel deleted successfully')).toBeVisible()
  await expect(confirm).toBeHidden()
  await expect(channelCard(page, bakery.name)).toBeHidden()
  await expect.poll(() => warnings.some((w) => w.includes('Facebook logout failed'))).toBe(true)
  expect((await fakeSdkCalls(page)).filter((c) => c.method === 'logout')).toHaveLength(1)

  await setFakeFacebook(page, { logoutFails: false })
  await channelCard(page, books.name).click()
  await page
    .getByRole('dialog', { name: 'Channel Details' })
    .getByRole('link', { name: 'Delete Channel' })
    .click()
  await page
    .getByRole('dialog', { name: 'Delete Channel' })
    .getByRole('button', { name: 'Delete Channel' })
    .click()
  await expect(page.getByText('No channels connected yet')).toBeVisible()
  await expect
    .poll(async () => (await fakeSdkCalls(page)).filter((c) => c.method === 'logout'))
    .toHaveLength(2)
  const status = await page.evaluate(
    () => new Promise((resolve) => window.FB?.getLoginStatus((answer) => resolve(answer))),
  )
  expect(status).toMatchObject({ status: 'unknown' })
  expect((await graphState()).pageSubscriptions[books.id]).toBeUndefined()
})

test('Facebook connect failures say why: cancelled login, missing permissions, no pages, nothing left', async ({
  page,
}) => {
  const noPages = await facebookUser()
  const declined = await facebookUser({
    pages: [{ name: 'Never Connected' }],
    declined: ['pages_messaging', 'pages_manage_metadata'],
  })
  const onePage = await facebookUser({ pages: [{ name: `Solo Shop ${randomUUID().slice(0, 6)}` }] })
  await routeFakeFacebookSdk(page, { loginStatus: 'unknown', graphRoot: GRAPH_URL })
  await signUpWithOrganization(page)

  await chooseAddChannel(page, 'Facebook Page')
  await expectBanner(page, 'Facebook login was cancelled or failed')

  await setFakeFacebook(page, { loginStatus: 'connected', accessToken: declined.token })
  await chooseAddChannel(page, 'Facebook Page')
  await expectBanner(
    page,
    'Facebook did not grant these permissions: pages_messaging, pages_manage_metadata. Connect again and allow all of them.',
  )

  await setFakeFacebook(page, { accessToken: noPages.token })
  await chooseAddChannel(page, 'Facebook Page')
  await expectBanner(
    page,
    'No Facebook pages found. You need to be an admin of at least one Facebook page to use this feature.',
  )
  await expect(page.getByText('No channels connected yet')).toBeVisible()

  await setFakeFacebook(page, { accessToken: onePage.token })
  await chooseAddChannel(page, 'Facebook Page')
  await expect(channelCard(page, onePage.pages[0]?.name ?? '')).toBeVisible()
  await chooseAddChannel(page, 'Facebook Page')
  await expectBanner(page, 'No Facebook pages available to connect')

  // The refused attempts never reached the server's checks.
  const checked = (await graphCalls()).filter((c) => c.path === '/debug_token')
  expect(checked.some((c) => c.query.input_token === declined.pages[0]?.accessToken)).toBe(false)
})

test('connecting a WhatsApp number through Embedded Signup: the card shows the verified name', async ({
  page,
}) => {
  const verifiedName = `Acme Support ${randomUUID().slice(0, 6)}`
  const number = await whatsappNumber(verifiedName)
  const sdk = await routeFakeFacebookSdk(page, {
    signupCode: number.code,
    wabaId: number.wabaId,
    phoneNumberId: number.phoneNumberId,
  })
  await signUpWithOrganization(page)
  expect(sdk.count).toBe(0)

  await chooseAddChannel(page, 'WhatsApp Business Account')
  const card = channelCard(page, verifiedName)
  await expect(card).toBeVisible()
  await expect(card).toHaveAccessibleDescription(/WhatsApp Number/)
  await expect(page.getByText(`WhatsApp number ${verifiedName} connected successfully`)).toBeVisible()

  const login = (await fakeSdkCalls(page)).find((c) => c.method === 'login')
  expect(login?.options).toMatchObject({
    config_id: E2E_META_APP.whatsappConfigId,
    response_type: 'code',
    override_default_response_type: true,
    extras: { featureType: 'only_waba_sharing' },
  })
  // The server exchanged the code and subscribed the app to the WABA.
  const seen = await graphCalls()
  expect(seen.some((c) => c.path === '/oauth/access_token' && c.query.code === number.code)).toBe(true)
  expect((await graphState()).wabaSubscriptions).toContain(number.wabaId)

  await card.click()
  const details = page.getByRole('dialog', { name: 'Channel Details' })
  await expect(details.getByText('WhatsApp', { exact: true })).toBeVisible()
  await expect(details.getByText(number.displayPhoneNumber, { exact: true })).toBeVisible()
  await expect(details.getByText(`${verifiedName} WABA`, { exact: true })).toBeVisible()
  await expect(details.getByRole('switch', { name: 'Webhook Subscription' })).toBeChecked()
})

test('WhatsApp signup failures say why: cancelled, no code, no phone number, a refused code', async ({
  page,
}) => {
  const number = await whatsappNumber(`Refused ${randomUUID().slice(0, 6)}`)
  await routeFakeFacebookSdk(page, { signupEvent: 'CANCEL' })
  await signUpWithOrganization(page)

  await chooseAddChannel(page, 'WhatsApp Business Account')
  await expectBanner(page, 'User cancelled WhatsApp signup or did not authorize')

  await setFakeFacebook(page, { signupEvent: 'FINISH', signupCode: '' })
  await chooseAddChannel(page, 'WhatsApp Business Account')
  await expectBanner(page, 'No authorization code received from WhatsApp signup')

  await setFakeFacebook(page, { signupEvent: 'FINISH_ONLY_WABA', signupCode: number.code })
  await chooseAddChannel(page, 'WhatsApp Business Account')
  await expectBanner(page, 'WhatsApp signup finished without a phone number')

  // A code Graph does not know (used already, or expired): the server refuses, nothing is stored.
  await setFakeFacebook(page, {
    signupEvent: 'FINISH',
    signupCode: `unknown-${randomUUID()}`,
    wabaId: number.wabaId,
    phoneNumberId: number.phoneNumberId,
  })
  await chooseAddChannel(page, 'WhatsApp Business Account')
  await expectBanner(page, 'Failed to connect WhatsApp number')
  await expect(page.getByText('No channels connected yet')).toBeVisible()
})

test('the connect actions refuse bad input with 400 and store nothing', async ({ page }) => {
  await signUpWithOrganization(page)
  const post = (form: Record<string, string>) =>
    page.request.post(`/channels/connect/${form.intent === 'connect-facebook' ? 'facebook' : 'whatsapp'}`, {
      form,
      maxRedirects: 0,
    })

  expect((await post({ intent: 'connect-facebook' })).status()).toBe(400)
  const forged = await post({
    intent: 'connect-facebook',
    'pages[0].id': graphId(),
    'pages[0].name': 'Forged Page',
    'pages[0].accessToken': `EAA-forged-${randomUUID()}`,
  })
  expect(forged.status()).toBe(400)
  expect(
    (await post({ intent: 'connect-whatsapp', wabaId: graphId(), phoneNumberId: graphId() })).status(),
  ).toBe(400)
  const badPin = await post({
    intent: 'connect-whatsapp',
    code: `e2e-code-${randomUUID()}`,
    wabaId: graphId(),
    phoneNumberId: graphId(),
    pin: '12',
  })
  expect(badPin.status()).toBe(400)

  await page.reload()
  await expect(page.getByText('No channels connected yet')).toBeVisible()
})
