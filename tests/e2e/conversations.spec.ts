import { expect, test } from './helpers'
import type { Page } from '@playwright/test'
import { telegramTextUpdate } from '../fixtures/telegram'
import {
  assignAgent,
  closeDetails,
  connectBot,
  createAgent,
  FAKE_TELEGRAM_URL,
  flip,
  openDetails,
  registerBot,
  signUpWithOrganization,
  telegramCalls,
} from './channel-helpers'

test.describe.configure({ timeout: 180_000 }) // long flows: sign-up, connect, several deliveries

// The inbox (issue 16) against the fakes: a customer writes to a Telegram bot, the AI answers, a person takes
// over, answers, hands back.

const SCREENSHOTS = process.env.E2E_SCREENSHOT_DIR
async function screenshot(page: Page, name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true })
}

async function deliver(token: string, chatId: number, text: string, updateId: number) {
  const update = telegramTextUpdate({ updateId, messageId: updateId, chatId, text })
  const response = await fetch(`${FAKE_TELEGRAM_URL}/__fake/deliver`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, update }),
  })
  expect(((await response.json()) as { status: number }).status).toBe(200)
}

const sentTexts = async (token: string, chatId: number) =>
  (await telegramCalls(token))
    .filter((call) => call.method === 'sendMessage' && Number(call.params.chat_id) === chatId)
    .map((call) => String(call.params.text))

/** A signed-in owner with a bot whose webhook is on and whose agent answers. */
async function botWithAgent(page: Page) {
  await signUpWithOrganization(page, 'Inbox Owner')
  await createAgent(page, 'Front Desk', 'Answers everyone')
  const bot = await registerBot('Inbox Bot')
  await page.reload()
  await connectBot(page, bot.token)
  const details = await openDetails(page, 'Inbox Bot')
  await flip(details, 'Webhook Subscription')
  await assignAgent(page, details, 'Front Desk')
  await closeDetails(details)
  return bot
}

const transcript = (page: Page) => page.getByRole('list', { name: 'Messages' })
/** The open conversation (beside the list, whose filters also name the states). */
const conversation = (page: Page) => page.getByRole('article')

test('a person takes over a Telegram conversation from the AI, answers, and hands back', async ({ page }) => {
  const bot = await botWithAgent(page)
  await page.goto('/conversations')
  await expect(page.getByText('No conversations yet')).toBeVisible()
  await screenshot(page, 'conversations-empty')

  const chatId = 800_000 + Math.floor(Math.random() * 100_000)
  const base = Math.floor(Math.random() * 1_000_000)
  await deliver(bot.token, chatId, 'Where is my order?', base)
  await expect
    .poll(() => sentTexts(bot.token, chatId), { timeout: 20_000 })
    .toEqual(['Echo: Where is my order?'])

  // Live: the conversation appears in the open list without a reload (LISTEN/NOTIFY, server-sent events).
  await page.getByRole('link', { name: /Ann/ }).click()
  await expect(page).toHaveURL(/\/conversations\/[0-9a-f-]{36}$/)
  await expect(transcript(page).getByText('Where is my order?', { exact: true })).toBeVisible()
  await expect(transcript(page).getByText('Echo: Where is my order?')).toBeVisible()
  await expect(transcript(page).getByText('AI · Front Desk')).toBeVisible()
  await screenshot(page, 'conversation-ai')

  await page.getByRole('button', { name: 'Pause AI' }).click()
  await expect(conversation(page).getByText('Paused — a person is answering')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Resume AI' })).toBeVisible()

  await page.getByLabel('Your reply').fill('Hi Ann, this is Sam. Let me check.')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(transcript(page).getByText('Hi Ann, this is Sam. Let me check.')).toBeVisible()
  await expect(page.getByLabel('Your reply')).toHaveValue('')
  await expect
    .poll(() => sentTexts(bot.token, chatId))
    .toEqual(['Echo: Where is my order?', 'Hi Ann, this is Sam. Let me check.'])

  // Paused: the customer's next message is stored and shown, and the AI does not answer it.
  await deliver(bot.token, chatId, 'Thank you Sam', base + 1)
  await expect(transcript(page).getByText('Thank you Sam')).toBeVisible({ timeout: 5_000 })
  await expect(transcript(page).getByText('The AI is paused: a person is answering')).toBeVisible()
  expect(await sentTexts(bot.token, chatId)).toHaveLength(2)
  await screenshot(page, 'conversation-paused')

  await page.getByRole('button', { name: 'Resume AI' }).click()
  await expect(page.getByRole('button', { name: 'Pause AI' })).toBeVisible()
  await deliver(bot.token, chatId, 'One more question', base + 2)
  await expect.poll(() => sentTexts(bot.token, chatId), { timeout: 20_000 }).toHaveLength(3)
  // The model reads what the customer wrote while paused too: their two messages in a row are one turn.
  expect((await sentTexts(bot.token, chatId)).at(-1)).toBe('Echo: Thank you Sam\nOne more question')
  await expect(transcript(page).getByText(/Echo: Thank you Sam\s+One more question/)).toBeVisible({
    timeout: 5_000,
  })

  // On a phone: the conversation alone, with a way back to the list.
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(page.getByRole('search', { name: 'Filter conversations' })).toBeHidden()
  await screenshot(page, 'conversation-phone')
  await page.getByRole('link', { name: 'All conversations' }).click()
  await expect(page.getByRole('search', { name: 'Filter conversations' })).toBeVisible()
  await expect(page.getByRole('article')).toHaveCount(0)
  // The preview of a long last message is cut, not wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await screenshot(page, 'conversations-phone')
})

test("the AI takes the conversation back at the channel's hand-back time, with no customer message", async ({
  page,
}) => {
  test.setTimeout(240_000) // the shortest hand-back is a minute
  const bot = await botWithAgent(page)
  const details = await openDetails(page, 'Inbox Bot')
  await details.getByLabel('Hand back to the AI after (minutes)').fill('1')
  await details.getByRole('button', { name: 'Save' }).click()
  await expect(details.getByText('Saved')).toBeVisible()
  await closeDetails(details)

  const chatId = 950_000 + Math.floor(Math.random() * 40_000)
  await deliver(bot.token, chatId, 'Can a person help me?', Math.floor(Math.random() * 1_000_000))
  await expect.poll(() => sentTexts(bot.token, chatId), { timeout: 20_000 }).toHaveLength(1)
  await page.goto('/conversations')
  await page.getByRole('link', { name: /Ann/ }).click()
  await page.getByLabel('Your reply').fill('Sure, I am here.')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(conversation(page).getByText('Paused — a person is answering')).toBeVisible()
  await expect(conversation(page).getByText(/AI resumes at/)).toBeVisible()

  // A minute after the reply the job hands back; nothing is sent meanwhile.
  await expect(conversation(page).getByText('AI answering')).toBeVisible({ timeout: 100_000 })
  expect(await sentTexts(bot.token, chatId)).toHaveLength(2)
})

test('without JavaScript the composer sends once and the page shows the reply', async ({
  page,
  browser,
  baseURL,
}) => {
  const bot = await botWithAgent(page)
  const chatId = 900_000 + Math.floor(Math.random() * 90_000)
  await deliver(bot.token, chatId, 'Hello without script', Math.floor(Math.random() * 1_000_000))
  await expect.poll(() => sentTexts(bot.token, chatId), { timeout: 20_000 }).toHaveLength(1)

  const noScript = await browser.newContext({
    baseURL,
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  })
  const plain = await noScript.newPage()
  await plain.goto('/conversations')
  await plain.getByRole('link', { name: /Ann/ }).click()
  await plain.getByLabel('Your reply').fill('Answered by a person, no script')
  await plain.getByRole('button', { name: 'Send' }).click()
  await expect(transcript(plain).getByText('Answered by a person, no script')).toBeVisible()
  await expect(conversation(plain).getByText('Paused — a person is answering')).toBeVisible()
  expect(await sentTexts(bot.token, chatId)).toEqual([
    'Echo: Hello without script',
    'Answered by a person, no script',
  ])
  await screenshot(plain, 'conversation-noscript')

  // The same form sent again (a reload of the answer, a second click): its key was used, nothing more is sent.
  await plain.goBack()
  await plain.getByLabel('Your reply').fill('Answered by a person, no script')
  await plain.getByRole('button', { name: 'Send' }).click()
  await expect(transcript(plain).getByText('Answered by a person, no script')).toHaveCount(1)
  expect(await sentTexts(bot.token, chatId)).toHaveLength(2)
  await noScript.close()
})
