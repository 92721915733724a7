import { randomUUID } from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, test } from './helpers'
import { messengerDelivery, messengerEcho, messengerText } from '../fixtures/meta/deliveries'
import {
  assignAgent,
  closeDetails,
  createAgent,
  openDetails,
  signUpWithOrganization,
} from './channel-helpers'
import { routeFakeFacebookSdk } from './facebook-sdk-route'
import { E2E_META_APP } from './meta-app'
import {
  chooseAddChannel,
  deliverToMetaWebhook,
  facebookUser,
  GRAPH_URL,
  graphId,
  graphMessages,
  seedGraph,
} from './meta-helpers'

test.describe.configure({ timeout: 180_000 }) // sign-up, Facebook login, several deliveries

// Issue #16 against the fakes: a reply a person writes on Messenger itself (Meta Business Suite: an echo that
// names another app) pauses the AI; the echo of our own send (it names our app) does not. The customer is named
// as the User Profile API names them to the page.

const transcript = (page: Page) => page.getByRole('list', { name: 'Messages' })
/** The open conversation (beside the list, whose filters also name the states). */
const conversation = (page: Page) => page.getByRole('article')
const POLL = { timeout: 30_000 }

/** The page's texts to one person through the Send API, in order (typing indicators left out). */
const sentTexts = async (pageId: string, psid: string) =>
  (await graphMessages())
    .filter((message) => message.from === pageId && message.to === psid && message.text !== undefined)
    .map(({ id, text = '' }) => ({ id, text }))

test('a Messenger echo from another app pauses the conversation; the echo of our own send does not', async ({
  page,
  baseURL,
}) => {
  const tag = randomUUID().slice(0, 8)
  const pageName = `Harbor Deli ${tag}`
  const user = await facebookUser({ pages: [{ name: pageName }] })
  const [deli] = user.pages
  await routeFakeFacebookSdk(page, { accessToken: user.token, graphRoot: GRAPH_URL })
  await signUpWithOrganization(page, 'Echo Owner')
  await createAgent(page, 'Deli Helper', 'Answers on Messenger')
  await chooseAddChannel(page, 'Facebook Page')
  await expect(page.getByText(`Facebook page ${pageName} connected successfully`)).toBeVisible()
  const details = await openDetails(page, pageName)
  await expect(details.getByRole('switch', { name: 'Webhook Subscription' })).toBeChecked()
  await assignAgent(page, details, 'Deli Helper')
  await closeDetails(details)

  // A customer pastes a long order: the agent's answer is longer than a Messenger message and goes out in two
  // parts, each with its own mid (only the first is stored with the answer).
  const psid = graphId()
  // What the User Profile API tells the page about this person: the inbox names them so, not by their PSID.
  await seedGraph({ profiles: { [psid]: { pageId: deli.id, first_name: 'Rosa', last_name: `Diaz ${tag}` } } })
  const customerName = `Rosa Diaz ${tag}`
  const deliver = async (event: unknown) =>
    expect((await deliverToMetaWebhook(baseURL, messengerDelivery(deli.id, event))).status).toBe(200)
  const lines = Array.from({ length: 80 }, (_, i) => `${i + 1}. one rye loaf, sliced`)
  const question = [`Can you prepare this order? ${tag}`, ...lines].join('\n')
  await deliver(messengerText(deli.id, psid, question))
  await expect.poll(async () => (await sentTexts(deli.id, psid)).length, POLL).toBe(2)
  const parts = await sentTexts(deli.id, psid)
  expect(parts.map(({ text }) => text).join('\n')).toBe(`Echo: ${question}`)

  // The name is read after the answer, and the list shows it as it comes.
  await page.goto('/conversations')
  await expect(page.getByRole('link', { name: new RegExp(customerName) })).toBeVisible()
  await expect(page.getByRole('link', { name: new RegExp(psid) })).toHaveCount(0)
  await page.getByRole('link', { name: new RegExp(customerName) }).click()
  await expect(page).toHaveURL(/\/conversations\/[0-9a-f-]{36}$/)
  await expect(transcript(page).getByText(`Can you prepare this order? ${tag}`).first()).toBeVisible()
  await expect(transcript(page).getByText('AI · Deli Helper')).toHaveCount(1)
  await expect(transcript(page).getByText(customerName, { exact: true })).toBeVisible()
  await expect(conversation(page).getByText('AI answering')).toBeVisible()

  // Meta echoes each part back, naming our app: our own send, nothing is stored and nothing pauses (the second
  // part's mid is known to no stored message, so only its app id says it is ours). The receiver has applied the
  // echoes when it answers 200; a reload shows the state they left.
  for (const { id, text } of parts) {
    await deliver(messengerEcho(deli.id, psid, text, { appId: E2E_META_APP.appId, mid: id }))
  }
  await page.reload()
  await expect(conversation(page).getByText('AI answering')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Pause AI' })).toBeVisible()
  await expect(transcript(page).getByRole('listitem')).toHaveCount(2)
  await expect(transcript(page).locator('[data-author="external"]')).toHaveCount(0)
  // Still the AI's: the customer's next message is answered.
  const followUp = `And sourdough? ${tag}`
  await deliver(messengerText(deli.id, psid, followUp))
  await expect
    .poll(async () => (await sentTexts(deli.id, psid)).map(({ text }) => text), POLL)
    .toEqual([...parts.map(({ text }) => text), `Echo: ${followUp}`])
  await expect(transcript(page).getByText(`Echo: ${followUp}`)).toBeVisible()

  // A person answers in Meta Business Suite: an echo naming another app. Shown live, as the page's message
  // written outside ReplyPilot, and the AI is paused.
  const personal = `Hi, this is Sam from the deli: we have both. ${tag}`
  await deliver(messengerEcho(deli.id, psid, personal, { appId: '263902037430900' }))
  const written = transcript(page).locator('li', { hasText: personal })
  await expect(written).toBeVisible()
  await expect(written).toHaveAttribute('data-author', 'external')
  await expect(written.getByText('Page inbox')).toBeVisible()
  await expect(conversation(page).getByText('Paused — a person is answering')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Resume AI' })).toBeVisible()

  // Paused: the customer's next message is kept for the person and not answered by the AI.
  const thanks = `Great, I will come by at noon ${tag}`
  await deliver(messengerText(deli.id, psid, thanks))
  const kept = transcript(page).locator('li', { hasText: thanks })
  await expect(kept).toBeVisible()
  await expect(kept.getByText('The AI is paused: a person is answering')).toBeVisible()
  // Stored as received with no reply job (ADR 036): nothing can be sent for it after this point.
  expect((await sentTexts(deli.id, psid)).map(({ text }) => text)).toEqual([
    ...parts.map(({ text }) => text),
    `Echo: ${followUp}`,
  ])
})
