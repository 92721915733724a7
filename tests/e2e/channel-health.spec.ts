import { expect, test } from './helpers'
import {
  closeDetails,
  connectBot,
  FAKE_TELEGRAM_URL,
  openDetails,
  registerBot,
  signUpWithOrganization,
  telegramCalls,
} from './channel-helpers'

/** Telegram's next getMe for the bot answers 401, as for a token revoked in BotFather. */
async function revokeNextGetMe(token: string) {
  const response = await fetch(`${FAKE_TELEGRAM_URL}/__fake/next`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'getMe', status: 401, description: 'Unauthorized', token }),
  })
  expect(response.ok).toBe(true)
}

test('a channel with a dead token: the banner shows on every page and leads to Channel Details with the reason and Reconnect', async ({
  page,
}) => {
  await signUpWithOrganization(page, 'Health Owner')
  const bot = await registerBot('Health Bot')
  await connectBot(page, bot.token)
  const banner = page.getByRole('status').filter({ hasText: 'A channel needs your attention' })
  await expect(banner).toHaveCount(0)

  // Check now: Telegram refuses the token.
  await revokeNextGetMe(bot.token)
  let details = await openDetails(page, 'Health Bot')
  // Connecting had Telegram accept the token: checked then (issue 34).
  await expect(details.getByText('Health: Working')).toBeVisible()
  await expect(details.getByText(/^Last checked: /)).not.toHaveText('Last checked: never')
  await details.getByRole('button', { name: 'Check now' }).click()
  await expect(details.getByText('Channel checked')).toBeVisible()
  await expect(details.getByText('Needs attention')).toBeVisible()
  expect((await telegramCalls(bot.token)).map((call) => call.method)).toContain('getMe')
  await closeDetails(details)

  // The card says so, and the banner names the channel, on this page and on the others.
  await expect(page.getByRole('link', { name: 'Health Bot', exact: true })).toContainText('Needs attention')
  await expect(banner).toBeVisible()
  // The dashboard's health panel names it too, with its fix.
  await page.goto('/')
  const panel = page.getByRole('region', { name: 'Channel health' })
  await expect(panel.getByText('The platform no longer accepts this channel’s token')).toBeVisible()
  await expect(panel.getByRole('link', { name: 'Reconnect' })).toHaveAttribute(
    'href',
    '/channels/connect/telegram',
  )
  await expect(banner).toBeVisible()
  await page.goto('/agents')
  await expect(banner).toBeVisible()
  const link = banner.getByRole('link', { name: /^Health Bot: The platform no longer accepts/ })
  await link.click()

  await expect(page).toHaveURL(/\/channels\/[0-9a-f-]{36}$/)
  details = page.getByRole('dialog', { name: 'Channel Details' })
  await expect(details.getByText('The platform no longer accepts this channel’s token')).toBeVisible()
  const reconnect = details.getByRole('link', { name: 'Reconnect' })
  await expect(reconnect).toHaveAttribute('href', '/channels/connect/telegram')
  await expect(details.getByText(/^Last checked: /)).not.toHaveText('Last checked: never')
  expect(await page.content()).not.toContain(bot.token)

  // Reconnect with the bot's new token: the channel works again and the banner goes.
  await reconnect.click()
  const connect = page.getByRole('dialog', { name: 'Connect Telegram Bot' })
  await expect(connect).toBeVisible()
  const renewed = `${bot.token.split(':')[0]}:${'R'.repeat(35)}`
  await fetch(`${FAKE_TELEGRAM_URL}/__fake/bots`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: renewed, username: bot.username, firstName: bot.firstName }),
  })
  await connect.getByRole('textbox', { name: 'Bot Token', exact: true }).fill(renewed)
  await connect.getByRole('button', { name: 'Connect Bot' }).click()
  await expect(connect).toBeHidden()
  await expect(banner).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Health Bot', exact: true })).not.toContainText(
    'Needs attention',
  )
})
