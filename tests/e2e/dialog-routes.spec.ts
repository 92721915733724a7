import {
  channelCard,
  connectBot,
  createAgent,
  openDetails,
  registerBot,
  signUpWithOrganization,
} from './channel-helpers'
import { expect, test } from './helpers'

/** Each dialog is a route of its own (docs/decisions/033-dialogs-as-nested-routes.md): its URL is a page. */

test('a dialog URL opened directly shows the dialog, and still does after a reload', async ({ page }) => {
  await signUpWithOrganization(page, 'Deep Link Owner')
  await createAgent(page, 'Deep Link Agent', 'Reached by its URL')
  await page.goto('/agents')
  const view = await page.getByRole('link', { name: 'View Deep Link Agent' }).getAttribute('href')
  expect(view).toMatch(/^\/agents\/[0-9a-f-]{36}$/)

  await page.goto(`${view}/edit`)
  const edit = page.getByRole('dialog', { name: 'Edit Agent' })
  await expect(edit.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Deep Link Agent')
  await page.reload()
  await expect(edit.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Deep Link Agent')
  await expect(page).toHaveURL(`${view}/edit`)

  // An agent that does not exist: the dialog says so.
  await page.goto('/agents/00000000-0000-4000-8000-000000000000/test')
  await expect(page.getByRole('dialog', { name: 'Test Agent' })).toContainText('Agent not found')

  const bot = await registerBot('Deep Link Bot')
  await page.goto('/channels')
  await connectBot(page, bot.token)
  await channelCard(page, 'Deep Link Bot').click()
  await expect(page).toHaveURL(/\/channels\/[0-9a-f-]{36}$/)
  await page.reload()
  const details = page.getByRole('dialog', { name: 'Channel Details' })
  await expect(details.locator('dt:text-is("Platform") + dd')).toHaveText('Telegram')
  await expect(details.getByRole('textbox', { name: 'Select Agent' })).toBeEnabled()
})

test("the browser's back button closes a dialog, and forward opens it again", async ({ page }) => {
  await signUpWithOrganization(page, 'Back Button Owner')
  await createAgent(page, 'Back Button Agent', 'Opened and closed by history')
  await page.goto('/agents')
  await page.getByRole('link', { name: 'View Back Button Agent' }).click()
  const details = page.getByRole('dialog', { name: 'Agent Details' })
  await expect(details).toContainText('Opened and closed by history')
  await expect(page).toHaveURL(/\/agents\/[0-9a-f-]{36}$/)

  await page.goBack()
  await expect(details).toBeHidden()
  await expect(page).toHaveURL('/agents')
  await expect(page.getByRole('article', { name: 'Back Button Agent' })).toBeVisible()
  await page.goForward()
  await expect(details).toContainText('Opened and closed by history')

  const bot = await registerBot('Back Button Bot')
  await page.goto('/channels')
  await connectBot(page, bot.token)
  const channel = await openDetails(page, 'Back Button Bot')
  await page.goBack()
  await expect(channel).toBeHidden()
  await expect(page).toHaveURL('/channels')
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the Channel Details changes post to their own routes and answer with the dialog', async ({
    page,
    browser,
  }) => {
    // Signed up with JavaScript (the organization dialog needs it), then the same session without.
    const setUp = await browser.newPage({ javaScriptEnabled: true })
    await signUpWithOrganization(setUp, 'No Script Dialogs')
    await createAgent(setUp, 'Plain Helper', 'Assigned without JavaScript')
    await page.context().addCookies((await setUp.context().storageState()).cookies)
    await setUp.close()

    // Opened by its URL, the connect dialog is a section of the page.
    await page.goto('/channels/connect/telegram')
    const form = page.getByRole('form', { name: 'Connect Telegram Bot' })
    const bot = await registerBot('Plain Dialog Bot')
    await form.getByRole('textbox', { name: 'Bot Token', exact: true }).fill(bot.token)
    await form.getByRole('button', { name: 'Connect Bot' }).click()
    await expect(page).toHaveURL('/channels')

    await channelCard(page, 'Plain Dialog Bot').click()
    await expect(page).toHaveURL(/\/channels\/[0-9a-f-]{36}$/)
    const details = page.getByRole('region', { name: 'Channel Details' })
    await details.getByRole('combobox', { name: 'Select Agent' }).selectOption({ label: 'Plain Helper' })
    await details.getByRole('button', { name: 'Assign' }).click()
    await expect(page).toHaveURL(/\/channels\/[0-9a-f-]{36}\/assign$/)
    await expect(details.getByText('Agent assigned successfully')).toBeVisible()
    await expect(details.getByRole('region', { name: 'Currently Assigned' })).toContainText('Plain Helper')

    await details.getByRole('button', { name: 'Remove' }).click()
    await expect(details.getByText('Agent removed successfully')).toBeVisible()
    await expect(details.getByRole('region', { name: 'Currently Assigned' })).toHaveCount(0)

    await details.getByRole('link', { name: 'Close' }).first().click()
    await expect(page).toHaveURL('/channels')
    await expect(details).toHaveCount(0)
  })
})
