import { createAccount, createInDialog, expect, signIn, test } from './helpers'

test.beforeEach(async ({ page }) => {
  const account = await createAccount('Shell User')
  await signIn(page, account.email)
  await expect(page).toHaveURL('/')
  await createInDialog(page, 'Shell Co')
})

test('the sidebar shows the product, marks the current page, and collapses with ctrl+b across reloads', async ({
  page,
}) => {
  const sidebar = page.getByTestId('sidebar')
  await expect(sidebar.getByText('AI Powered Reply Automation')).toBeVisible()
  await expect(sidebar.getByText('1.0.0')).toBeVisible()
  await expect(sidebar.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page')

  await sidebar.getByRole('link', { name: 'Agents' }).click()
  await expect(page).toHaveURL('/agents')
  await expect(sidebar.getByRole('link', { name: 'Agents' })).toHaveAttribute('aria-current', 'page')
  await expect(sidebar.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current', 'page')

  const width = async () => (await sidebar.boundingBox())?.width ?? 0
  expect(await width()).toBeCloseTo(256, -1)
  await page.keyboard.press('Control+b')
  await expect.poll(width).toBeCloseTo(48, -1)
  await page.reload()
  expect(await width()).toBeCloseTo(48, -1)
  const cookies = await page.context().cookies()
  const cookie = cookies.find((c) => c.name === 'sidebar_state')
  expect(cookie?.value).toBe('false')
  expect((cookie?.expires ?? 0) * 1000 - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000)
  await page.getByRole('button', { name: 'Toggle sidebar' }).click()
  await expect.poll(width).toBeCloseTo(256, -1)
})

test('below 768 px the sidebar is a drawer', async ({ page }) => {
  await page.setViewportSize({ width: 700, height: 900 })
  await expect(page.getByTestId('sidebar')).toBeHidden()
  await page.getByRole('button', { name: 'Toggle sidebar' }).click()
  const drawer = page.getByRole('dialog')
  await expect(drawer.getByRole('link', { name: 'Channels' })).toBeVisible()
  const box = await drawer.boundingBox()
  expect(box?.width).toBeCloseTo(288, -1)
  await drawer.getByRole('link', { name: 'Channels' }).click()
  await expect(page).toHaveURL('/channels')
  await expect(page.getByRole('dialog')).toBeHidden()
})
