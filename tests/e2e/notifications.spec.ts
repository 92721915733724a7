import type { Page } from '@playwright/test'
import {
  assignAgent,
  closeDetails,
  connectBot,
  createAgent,
  deliverText,
  openDetails,
  registerBot,
  signUpWithOrganization,
  telegramCalls,
} from './channel-helpers'
import { expect, test } from './helpers'

// Telling a person (issue 35): the bell, live; the email with its link; a member's choices.
const SCREENSHOTS = process.env.E2E_SCREENSHOT_DIR
async function screenshot(page: Page, name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true })
}

type Mail = { to: string[]; subject: string; text: string }
const mailsTo = async (email: string): Promise<Mail[]> =>
  ((await (await fetch(process.env.E2E_FAKE_MAILS_URL ?? '')).json()) as Mail[]).filter((m) =>
    m.to.includes(email),
  )

test('a handoff: the bell counts it live, the email’s link opens the conversation, the list leads to it', async ({
  page,
}) => {
  const owner = await signUpWithOrganization(page, 'Bell Owner')
  await createAgent(page, 'Front Desk', 'Answers everyone')
  const bot = await registerBot('Bell Bot')
  await page.reload()
  await connectBot(page, bot.token)
  const details = await openDetails(page, 'Bell Bot')
  await assignAgent(page, details, 'Front Desk')
  await closeDetails(details)

  await page.goto('/agents')
  const bell = page.getByRole('banner').getByRole('button', { name: /^Notifications/ })
  await expect(bell).toHaveAccessibleName('Notifications')
  await bell.click()
  await expect(page.getByRole('dialog', { name: 'Notifications' })).toContainText('Nothing new')
  await page.keyboard.press('Escape')

  const chatId = 600_000 + Math.floor(Math.random() * 100_000)
  const text = `Can a person call me? ${Math.random().toString(36).slice(2, 8)}`
  await fetch(`${process.env.E2E_FAKE_MODEL_URL}/__fake/next`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      match: text,
      toolCall: { name: 'handoff', arguments: { reason: 'Wants a call' } },
    }),
  })
  await deliverText(bot.token, chatId, text, Math.floor(Math.random() * 1_000_000))
  await expect
    .poll(async () => (await telegramCalls(bot.token)).filter((c) => c.method === 'sendMessage'), {
      timeout: 45_000,
    })
    .toHaveLength(1)
  // Live: no reload, no navigation.
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread', { timeout: 20_000 })

  await bell.click()
  const list = page.getByRole('dialog', { name: 'Notifications' })
  await expect(list.getByRole('link', { name: /Ann needs a person/ })).toContainText('Wants a call')
  await screenshot(page, 'notifications-bell')
  await list.getByRole('link', { name: /Ann needs a person/ }).click()
  await expect(page).toHaveURL(/\/conversations\/[0-9a-f-]{36}$/)
  await expect(page.getByRole('list', { name: 'Messages' }).getByText(text)).toBeVisible()
  await expect(bell).toHaveAccessibleName('Notifications')

  // The email: one, naming the customer, the reason and the message; its link opens the same conversation.
  await expect.poll(() => mailsTo(owner.email), { timeout: 30_000 }).toHaveLength(1)
  const [mail] = await mailsTo(owner.email)
  expect(mail.subject).toBe('Ann needs a person')
  expect(mail.text).toContain('Wants a call')
  expect(mail.text).toContain(text)
  const link = /Open the conversation: (\S+)/.exec(mail.text)?.[1] ?? ''
  expect(new URL(link).pathname).toBe(new URL(page.url()).pathname)
  await page.goto('/')
  await page.goto(link)
  await expect(page.getByRole('list', { name: 'Messages' }).getByText(text)).toBeVisible()

  // The list as a page (read now), and the settings, at 1280.
  await page.goto('/notifications')
  await expect(page.getByRole('link', { name: /Ann needs a person/ })).toBeVisible()
  await screenshot(page, 'notifications-page')
  await page.goto('/settings/notifications')
  await expect(page.getByRole('checkbox', { name: 'A conversation needs a person: Push' })).toBeChecked()

  // Telegram: the owner opens the bot with a one-time code; that chat gets alerts and is nobody's conversation.
  const byTelegram = page.getByRole('checkbox', { name: 'A conversation needs a person: Telegram' })
  await expect(byTelegram).toBeDisabled()
  await page.getByRole('button', { name: 'Link Telegram' }).click()
  await expect(page.getByRole('link', { name: `Open @${bot.username} in Telegram` })).toHaveAttribute(
    'href',
    new RegExp(`^https://t\\.me/${bot.username}\\?start=rp[A-Za-z0-9_-]{24}$`),
  )
  const command = (await page.getByText(/^\/start rp/).textContent()) ?? ''
  await screenshot(page, 'notification-settings-telegram')
  const ownersChat = chatId + 1
  await deliverText(bot.token, ownersChat, command, Math.floor(Math.random() * 1_000_000))
  await expect(page.getByText(`Alerts go to Ann on Telegram, from @${bot.username}.`)).toBeVisible({
    timeout: 15_000,
  })
  await expect(byTelegram).toBeEnabled()
  await expect(byTelegram).toBeChecked()
  const toOwner = async () =>
    (await telegramCalls(bot.token)).filter(
      (c) => c.method === 'sendMessage' && String(c.params.chat_id) === String(ownersChat),
    )
  await expect
    .poll(async () => (await toOwner()).map((c) => c.params.text), { timeout: 20_000 })
    .toEqual([expect.stringMatching(/^Done: you will get ReplyPilot alerts for Channels Org in this chat/)])
  await screenshot(page, 'notification-settings-desktop')
})

test('a member chooses what they are told and keeps quiet hours, on a phone and without script', async ({
  browser,
}) => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } })
  const page = await phone.newPage()
  await signUpWithOrganization(page, 'Quiet Owner')
  await page.goto('/settings')
  await page.getByRole('link', { name: 'Notification settings' }).click()
  await expect(page.getByRole('heading', { name: 'Notification settings', level: 1 })).toBeVisible()
  const byEmail = page.getByRole('checkbox', { name: 'A conversation needs a person: By email' })
  await expect(byEmail).toBeChecked()
  await expect(
    page.getByRole('checkbox', { name: 'A customer writes while you answer: By email' }),
  ).not.toBeChecked()
  await byEmail.uncheck()
  await page.getByRole('checkbox', { name: 'Keep quiet hours' }).check()
  await page.getByLabel('From').fill('21:30')
  await page.getByLabel('Until').fill('06:45')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Notification settings saved' })).toBeVisible()
  await screenshot(page, 'notification-settings-phone')
  await page.reload()
  await expect(byEmail).not.toBeChecked()
  await expect(page.getByLabel('From')).toHaveValue('21:30')
  await expect(page.getByLabel('Until')).toHaveValue('06:45')

  // Hours that end where they start are refused in words, and nothing changes.
  await page.getByLabel('Until').fill('21:30')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Quiet hours must end at another time than they start')).toBeVisible()
  await page.reload()
  await expect(page.getByLabel('Until')).toHaveValue('06:45')

  // Push: the page offers it per browser; the server keeps a browser's subscription, and refuses what is not one.
  await expect(page.getByRole('heading', { name: 'Push to this browser' })).toBeVisible()
  await expect(page.getByText('No browser gets push alerts yet')).toBeVisible()
  const key = await (await page.request.get('/notifications/push')).json()
  expect(key).toMatchObject({ subscriptions: 0 })
  expect(key.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/)
  const subscription = {
    endpoint: `https://push.example.com/send/${Math.random().toString(36).slice(2)}`,
    keys: { p256dh: `B${'a'.repeat(86)}`, auth: 'b'.repeat(22) },
  }
  const refused = await page.request.post('/notifications/push', {
    data: { intent: 'subscribe', subscription: { ...subscription, endpoint: 'http://10.0.0.1/push' } },
  })
  expect(refused.status()).toBe(400)
  const kept = await page.request.post('/notifications/push', { data: { intent: 'subscribe', subscription } })
  expect(await kept.json()).toEqual({ subscriptions: 1 })
  await page.reload()
  await expect(page.getByText('No browser gets push alerts yet')).toBeHidden()
  const signedIn = await phone.storageState()
  await phone.close()

  // Without script the bell is a link to the same list, as a page.
  const plain = await browser.newContext({ javaScriptEnabled: false, storageState: signedIn })
  const noScript = await plain.newPage()
  await noScript.goto('/agents')
  await noScript.getByRole('banner').getByRole('link', { name: 'Notifications' }).click()
  await expect(noScript).toHaveURL('/notifications')
  await expect(
    noScript.getByText('Nothing new. You are told here when a conversation needs a person.'),
  ).toBeVisible()
  await plain.close()
})
