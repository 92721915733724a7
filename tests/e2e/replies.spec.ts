import { randomInt } from 'node:crypto'
import { expect, test } from '@playwright/test'
import { deliverSignedWebhook } from '../fakes/graph-server'
import {
  connectBot,
  createAgent,
  FAKE_TELEGRAM_URL,
  flip,
  openDetails,
  registerBot,
  signUpWithOrganization,
  telegramCalls,
} from './channel-helpers'
import { E2E_META_APP } from './meta-app'

/** A Telegram update from a person in a private chat, as Telegram sends it. */
function textUpdate(chatId: number, text: string, updateId: number) {
  return {
    update_id: updateId,
    message: {
      message_id: updateId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: 'private', first_name: 'Ann' },
      from: { id: chatId, is_bot: false, first_name: 'Ann' },
      text,
    },
  }
}

/** The Telegram fake POSTs the update to the webhook the app registered, with its secret, and says what we answered. */
async function deliver(token: string, update: unknown): Promise<number> {
  const response = await fetch(`${FAKE_TELEGRAM_URL}/__fake/deliver`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, update }),
  })
  const { status } = (await response.json()) as { status: number }
  return status
}

const sentTexts = async (token: string, chatId: number) =>
  (await telegramCalls(token))
    .filter((call) => call.method === 'sendMessage' && Number(call.params.chat_id) === chatId)
    .map((call) => String(call.params.text))

test('a customer writes to a connected bot and the assigned agent answers, once and in order', async ({
  page,
}) => {
  await signUpWithOrganization(page, 'Reply Owner')
  await createAgent(page, 'Front Desk', 'Answers everyone')
  const bot = await registerBot('Front Desk Bot')
  await page.reload()
  await connectBot(page, bot.token)

  const details = await openDetails(page, 'Front Desk Bot')
  await flip(details, 'Webhook Subscription')
  await expect(details.getByRole('switch', { name: 'Webhook Subscription' })).toBeChecked()
  await details.getByRole('textbox', { name: 'Select Agent' }).click()
  await page.getByRole('option', { name: /Front Desk/ }).click()
  await details.getByRole('button', { name: 'Assign' }).click()
  await expect(details.getByText('Agent assigned successfully')).toBeVisible()

  const chatId = 700_000 + Math.floor(Math.random() * 100_000)
  const base = Math.floor(Math.random() * 1_000_000)
  // The first update three times (a redelivery), then two more right after.
  expect(await deliver(bot.token, textUpdate(chatId, 'Hello, are you open today?', base))).toBe(200)
  expect(await deliver(bot.token, textUpdate(chatId, 'Hello, are you open today?', base))).toBe(200)
  expect(await deliver(bot.token, textUpdate(chatId, 'Hello, are you open today?', base))).toBe(200)
  expect(await deliver(bot.token, textUpdate(chatId, 'And tomorrow?', base + 1))).toBe(200)
  expect(await deliver(bot.token, textUpdate(chatId, 'Thanks!', base + 2))).toBe(200)

  await expect
    .poll(() => sentTexts(bot.token, chatId), { timeout: 20_000 })
    .toEqual(['Echo: Hello, are you open today?', 'Echo: And tomorrow?', 'Echo: Thanks!'])

  // Switched off on the channel: the next message is kept for a person, not answered.
  await flip(details, 'Agent Enabled')
  await expect(details.getByRole('switch', { name: 'Agent Enabled' })).not.toBeChecked()
  expect(await deliver(bot.token, textUpdate(chatId, 'Still there?', base + 3))).toBe(200)
  await page.waitForTimeout(1500)
  expect(await sentTexts(bot.token, chatId)).toHaveLength(3)
})

test('Meta’s webhook on the running server: the handshake, and signed deliveries checked before anything is stored', async ({
  baseURL,
}) => {
  const url = `${baseURL}/webhooks/meta`
  const query = (token: string) =>
    new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.verify_token': token, 'hub.challenge': '424242' })
  const accepted = await fetch(`${url}?${query(E2E_META_APP.verifyToken)}`)
  expect(accepted.status).toBe(200)
  expect(await accepted.text()).toBe('424242')
  expect((await fetch(`${url}?${query('wrong')}`)).status).toBe(403)

  const pageId = String(randomInt(1e9, 9e9))
  const delivery = {
    object: 'page',
    entry: [
      {
        id: pageId,
        time: Date.now(),
        messaging: [
          {
            sender: { id: '1' },
            recipient: { id: pageId },
            timestamp: Date.now(),
            message: { mid: 'm_1', text: 'Hi' },
          },
        ],
      },
    ],
  }
  // Signed with another secret: refused. Signed with the app's: read, and no such page is connected.
  expect((await deliverSignedWebhook(url, delivery, 'not-the-app-secret')).status).toBe(401)
  expect((await deliverSignedWebhook(url, delivery, E2E_META_APP.appSecret)).status).toBe(404)
  expect((await deliverSignedWebhook(url, '{"object":', E2E_META_APP.appSecret)).status).toBe(400)
})
