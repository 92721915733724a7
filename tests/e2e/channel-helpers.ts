import { randomBytes, randomInt, randomUUID } from 'node:crypto'
import { expect, type Locator, type Page } from '@playwright/test'
import { telegramTextUpdate } from '../fixtures/telegram'
import { createAccount, createInDialog, signIn } from './helpers'

/** What the Channels specs share: the Telegram fake's control API and the steps a person takes on the page. */
export const FAKE_TELEGRAM_URL = process.env.E2E_FAKE_TELEGRAM_URL
export type FakeCall = { method: string; token: string; params: Record<string, unknown> }

/** A well-formed token no one has registered: a bot id, a colon, 35 token characters. */
export function newToken() {
  return `${randomInt(100_000_000, 2_000_000_000)}:${randomBytes(27).toString('base64url').slice(0, 35)}`
}

/** A bot the Telegram fake knows, so that getMe answers with its name. */
export async function registerBot(firstName: string) {
  const token = newToken()
  const username = `e2e_${randomUUID().slice(0, 8)}_bot`
  const response = await fetch(`${FAKE_TELEGRAM_URL}/__fake/bots`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, username, firstName }),
  })
  expect(response.ok).toBe(true)
  return { token, username, firstName }
}

/** A customer's text message to the bot, as Telegram posts it to the bot's webhook; the webhook must take it. */
export async function deliverText(token: string, chatId: number, text: string, updateId: number) {
  const update = telegramTextUpdate({ updateId, messageId: updateId, chatId, text })
  const response = await fetch(`${FAKE_TELEGRAM_URL}/__fake/deliver`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, update }),
  })
  expect(((await response.json()) as { status: number }).status).toBe(200)
}

export async function telegramCalls(token: string): Promise<FakeCall[]> {
  const calls: FakeCall[] = await (await fetch(`${FAKE_TELEGRAM_URL}/__fake/calls`)).json()
  return calls.filter((call) => call.token === token)
}

/** A signed-in user with an organization, on the empty Channels page. */
export async function signUpWithOrganization(page: Page, displayName = 'Channel Owner') {
  const account = await createAccount(displayName)
  await signIn(page, account.email)
  await expect(page).toHaveURL('/')
  await page.goto('/channels')
  await expect(page.getByRole('heading', { name: 'Channels', level: 1 })).toBeVisible()
  await expect(page.getByText('Manage all your connected social channels in one place')).toBeVisible()
  await expect(page.getByText('No organization selected')).toBeVisible()
  await createInDialog(page, 'Channels Org')
  await expect(page.getByText('No channels connected yet')).toBeVisible()
  await expect(page.getByText('Connect a channel to get started')).toBeVisible()
  return account
}

/**
 * An agent made by posting the Agents page's own form with the browser's session. It answers each message at once
 * (a burst wait of 0) unless the test asks for a wait; its other behaviour takes a new agent's defaults.
 */
export async function createAgent(
  page: Page,
  name: string,
  description: string,
  { burstWaitSeconds = 0 } = {},
) {
  const response = await page.request.post('/agents/new', {
    form: {
      burstWaitSeconds: String(burstWaitSeconds),
      name,
      readableId: `agent-${randomUUID().slice(0, 8)}`,
      description,
      modelType: 'simple',
      creativityLevel: '0.5',
      systemPrompt: 'You answer customer questions politely.',
      noscript: 'true',
    },
    maxRedirects: 0,
  })
  // Back to the list, not to /login (which an unknown path or a lost session would also answer with a 302).
  expect(response.status()).toBe(302)
  expect(response.headers()['location']).toBe('/agents')
}

export async function openConnectDialog(page: Page) {
  await page.getByRole('button', { name: 'Add Channel' }).click()
  await page.getByRole('menuitem', { name: 'Telegram Bot' }).click()
  const dialog = page.getByRole('dialog', { name: 'Connect Telegram Bot' })
  await expect(dialog).toBeVisible()
  return dialog
}

export async function connectBot(page: Page, token: string) {
  const dialog = await openConnectDialog(page)
  await dialog.getByRole('textbox', { name: 'Bot Token', exact: true }).fill(token)
  await dialog.getByRole('button', { name: 'Connect Bot' }).click()
  await expect(dialog).toBeHidden()
}

export const channelCard = (page: Page, name: string) => page.getByRole('link', { name, exact: true })

/**
 * Flips a switch the way a pointer does (Mantine lays its transparent input over the track and the label), and
 * waits until the change is saved: the server's answer to the post, then the switch usable again. A webhook that
 * arrives before that may still see the old setting.
 */
export async function flip(dialog: Locator, label: string) {
  const toggle = dialog.getByRole('switch', { name: label })
  const saved = dialog.page().waitForResponse((response) => response.request().method() === 'POST')
  await toggle.click()
  await saved
  await expect(toggle).toBeEnabled()
}

/** Opens a channel's details and waits for the active agents the dialog reloads (the dropdown is usable again). */
export async function openDetails(page: Page, name: string) {
  await channelCard(page, name).click()
  const details = page.getByRole('dialog', { name: 'Channel Details' })
  await expect(details.getByRole('textbox', { name: 'Select Agent' })).toBeEnabled()
  return details
}

/** Picks an agent in the open Channel Details dialog and assigns it, as a person does. */
export async function assignAgent(page: Page, details: Locator, agentName: string) {
  await details.getByRole('textbox', { name: 'Select Agent' }).click()
  await page.getByRole('option', { name: agentName }).click()
  await details.getByRole('button', { name: 'Assign' }).click()
  await expect(details.getByText('Agent assigned successfully')).toBeVisible()
}

export async function closeDetails(details: Locator) {
  await details.getByRole('link', { name: 'Close', exact: true }).click()
  await expect(details).toBeHidden()
}

/** A signed-in owner with a bot whose webhook is on and whose agent (Front Desk unless named) answers. */
export async function botWithAgent(page: Page, names: { owner?: string; agent?: string; bot?: string } = {}) {
  const { owner = 'Inbox Owner', agent = 'Front Desk', bot: botName = 'Inbox Bot' } = names
  const account = await signUpWithOrganization(page, owner)
  await createAgent(page, agent, 'Answers everyone')
  const bot = await registerBot(botName)
  await page.reload()
  await connectBot(page, bot.token)
  const details = await openDetails(page, botName)
  await flip(details, 'Webhook Subscription')
  await assignAgent(page, details, agent)
  await closeDetails(details)
  return { bot, owner: account }
}
