import { randomUUID } from 'node:crypto'
import type { Locator, Page } from '@playwright/test'
import {
  assignAgent,
  botWithAgent,
  connectBot,
  createAgent,
  deliverText,
  registerBot,
  signUpWithOrganization,
  telegramCalls,
} from './channel-helpers'
import { expect, test } from './helpers'

test.describe.configure({ timeout: 180_000 }) // a whole first setup, then deliveries

// The dashboard at / (issue #19): the getting-started checklist ticking through a first setup done on the real
// screens, then the figures and charts of the messages the Telegram fake delivers, and the filters.

const SHOTS = process.env.E2E_SCREENSHOT_DIR
/** A full-page screenshot at a desktop width and at a phone's, when asked for (E2E_SCREENSHOT_DIR). */
async function screenshots(page: Page, name: string) {
  if (!SHOTS) return
  for (const [label, width] of [
    ['desktop', 1280],
    ['phone', 390],
  ] as const) {
    await page.setViewportSize({ width, height: label === 'phone' ? 844 : 900 })
    await page.waitForTimeout(300)
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 720 })
}

const checklist = (page: Page) => page.getByRole('list', { name: 'Get started' })
const step = (page: Page, name: string) => checklist(page).getByRole('listitem').filter({ hasText: name })
async function expectSteps(page: Page, done: string[], todo: string[]) {
  for (const name of done) await expect(step(page, name)).toContainText(`${name} — Done`)
  for (const name of todo) {
    await expect(step(page, name)).toContainText(`${name} — To do`)
    await expect(step(page, name).getByRole('link', { name })).toBeVisible()
  }
}

const figure = (page: Page, label: string): Locator =>
  page.getByRole('list', { name: 'Figures' }).getByRole('listitem').filter({ hasText: label })
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** The card holds its label, then this value and nothing more: 3 is not 13 or 30. */
async function expectFigure(page: Page, label: string, value: string) {
  await expect(figure(page, label)).toHaveText(
    new RegExp(`^${escapeRegExp(label)}\\s*${escapeRegExp(value)}$`),
  )
}

const STEPS = [
  'Connect a channel',
  'Create your agent',
  'Try your agent',
  'Go live',
  'Receive the first customer message',
]
const [CONNECT, CREATE, TRY, LIVE, RECEIVE] = STEPS

test('the checklist ticks through a first setup, then the figures and charts show the messages', async ({
  page,
}) => {
  await signUpWithOrganization(page, 'Dashboard Owner')
  await page.goto('/')
  await expect(page.getByRole('heading', { name: 'Get started' })).toBeVisible()
  await expectSteps(page, [], STEPS)
  await screenshots(page, 'checklist-new')

  // Each unticked step links to where it is done.
  await step(page, 'Connect a channel').getByRole('link').click()
  await expect(page).toHaveURL('/channels')
  const bot = await registerBot('Dashboard Bot')
  await connectBot(page, bot.token)
  await page.goto('/')
  await expectSteps(page, STEPS.slice(0, 1), STEPS.slice(1))

  await createAgent(page, 'Front Desk', 'Answers everyone')
  await page.goto('/')
  await expectSteps(page, STEPS.slice(0, 2), STEPS.slice(2))

  // Going live is choosing the agent: the channel starts receiving with no switch of its own (issue 34).
  await step(page, LIVE).getByRole('link').click()
  const details = page.getByRole('dialog', { name: 'Channel Details' })
  await expect(details.getByRole('textbox', { name: 'Select Agent' })).toBeEnabled()
  await assignAgent(page, details, 'Front Desk')
  await expect(details.getByRole('status')).toContainText('The channel is now receiving messages')
  await expect(details.getByRole('switch', { name: 'Webhook Subscription' })).toBeChecked()
  await page.goto('/')
  await expectSteps(page, [CONNECT, CREATE, LIVE], [TRY, RECEIVE])
  await screenshots(page, 'checklist-half')
  await expect(step(page, TRY).getByRole('link')).toHaveAttribute('href', /^\/agents\/[\w-]+\/test$/)

  // Three customers write; the agent answers each.
  const base = Math.floor(Math.random() * 1_000_000)
  const chats = [0, 1, 2].map((i) => 700_000 + Math.floor(Math.random() * 100_000) * 3 + i)
  for (const [i, chatId] of chats.entries()) await deliverText(bot.token, chatId, `Question ${i}`, base + i)
  await expect
    .poll(async () => (await telegramCalls(bot.token)).filter((c) => c.method === 'sendMessage').length, {
      timeout: 30_000,
    })
    .toBe(3)

  // The first message ends the checklist: the figures take its place.
  await page.goto('/')
  await expect(checklist(page)).toHaveCount(0)
  await expectFigure(page, 'Customer messages received', '3')
  await expectFigure(page, 'Answered by AI', '3')
  await expectFigure(page, 'AI answer rate', '100%')
  await expectFigure(page, 'Conversations started', '3')
  await expect(figure(page, 'Estimated cost')).toContainText('estimate')

  // The charts are drawn (lazily loaded) as they come into view; their tables stay for screen readers.
  const outcomes = page.getByRole('region', { name: 'Messages per day by outcome' })
  await outcomes.scrollIntoViewIfNeeded()
  await expect(outcomes.locator('[data-chart] .recharts-surface').first()).toBeVisible()
  await expect(outcomes.locator('[data-chart]')).toHaveAttribute('aria-hidden', 'true')
  await expect(outcomes.getByRole('table', { name: 'Messages per day by outcome' })).toBeAttached()
  for (const name of ['Response time per day', 'Tokens per day']) {
    const region = page.getByRole('region', { name })
    await region.scrollIntoViewIfNeeded()
    await expect(region.locator('.recharts-surface').first()).toBeVisible()
  }
  const byAgent = page.getByRole('region', { name: 'By agent' })
  await byAgent.scrollIntoViewIfNeeded()
  // Received, then the AI answer rate, in their own cells.
  const frontDesk = byAgent.getByRole('row', { name: /Front Desk/ }).getByRole('cell')
  await expect(frontDesk.nth(0)).toHaveText('3')
  await expect(frontDesk.nth(1)).toHaveText('100%')
  await expect(byAgent.locator('.recharts-surface')).toBeVisible()
  await screenshots(page, 'figures')

  // A filter changes the figures: a past custom range has none of today's messages.
  await page.getByRole('combobox', { name: 'Period' }).selectOption('custom')
  await page.getByRole('textbox', { name: 'From', exact: true }).fill('2024-01-01')
  await page.getByRole('textbox', { name: 'To', exact: true }).fill('2024-01-07')
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page).toHaveURL(/period=custom&from=2024-01-01&to=2024-01-07/)
  await expectFigure(page, 'Customer messages received', '0')
  await expect(page.getByText('Jan 1 – Jan 7, 2024')).toBeVisible()

  // Today, by the hour, for the channel: the three again.
  await page.getByRole('combobox', { name: 'Period' }).selectOption('today')
  await page.getByRole('combobox', { name: 'Channel' }).selectOption({ label: 'Dashboard Bot' })
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page).toHaveURL(/period=today/)
  await expectFigure(page, 'Customer messages received', '3')
  await expect(page.getByRole('region', { name: 'Messages per hour by outcome' })).toBeVisible()

  // An inverted range is explained beside the form; a channel of no one's is not found.
  await page.goto('/?period=custom&from=2024-02-10&to=2024-02-01')
  await expect(page.getByRole('alert')).toContainText('`from` must be on or before `to`')
  await expect(figure(page, 'Customer messages received')).toHaveCount(0)
  const response = await page.goto(`/?channelId=${randomUUID()}`)
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('alert')).toContainText('Channel not found')
  await screenshots(page, 'error-not-found')
  await page.getByRole('link', { name: 'Show all channels and agents' }).click()
  await expectFigure(page, 'Customer messages received', '3')
})

test('without JavaScript the same figures are tables', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  // The owner's setup runs with JavaScript; the dashboard is then read without it in another context.
  const setup = await browser.newPage()
  const { bot, owner: account } = await botWithAgent(setup, {
    owner: 'No Script Owner',
    agent: 'Desk',
    bot: 'No Script Bot',
  })
  await deliverText(
    bot.token,
    900_000 + Math.floor(Math.random() * 90_000),
    'Hi',
    Math.floor(Math.random() * 1e6),
  )
  await expect
    .poll(async () => (await telegramCalls(bot.token)).filter((c) => c.method === 'sendMessage').length, {
      timeout: 30_000,
    })
    .toBe(1)

  await context.addCookies(await setup.context().cookies())
  await page.goto('/?period=7d')
  expect(account.email).toBeTruthy()
  const table = page.getByRole('table', { name: 'Messages per day by outcome' })
  await expect(table).toBeVisible()
  await expect(table.getByRole('row')).toHaveCount(8) // a header and seven days
  await expect(page.locator('.recharts-surface')).toHaveCount(0)
  await page.getByRole('combobox', { name: 'Period' }).selectOption('today')
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByRole('table', { name: 'Messages per hour by outcome' })).toBeVisible()
  await screenshots(page, 'no-javascript')
  await context.close()
})
