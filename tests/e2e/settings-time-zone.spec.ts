import type { Page } from '@playwright/test'
import { apiUser, createOrg } from './api-client'
import { expect, signIn, test } from './helpers'

// The organization's time zone in Settings (issue #19): the dashboard counts its days in it.
const section = (page: Page) => page.getByRole('region', { name: 'Time zone' })

test("an owner sets the organization's time zone in Settings", async ({ page, request }) => {
  const owner = await apiUser(request, 'Zoe Zone')
  await createOrg(owner, 'Zone Co')
  await signIn(page, owner.email)
  await page.getByRole('link', { name: 'Settings' }).click()
  // The spec's Settings texts stay.
  await expect(page.getByRole('heading', { name: 'Account Information' })).toBeVisible()
  const zone = section(page).getByLabel('Time zone')
  await expect(zone).toHaveValue('UTC')
  await zone.click()
  await zone.fill('Tokyo')
  await page.getByRole('option', { name: 'Asia/Tokyo' }).click()
  await section(page).getByRole('button', { name: 'Save time zone' }).click()
  await expect(section(page).getByRole('status')).toHaveText(
    'Time zone saved: the dashboard now counts days in Asia/Tokyo',
  )
  await page.reload()
  await expect(section(page).getByLabel('Time zone')).toHaveValue('Asia/Tokyo')
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the time zone is a plain select that saves', async ({ page, request }) => {
    const owner = await apiUser(request, 'Nils NoScript')
    await createOrg(owner, 'No Script Zone Co')
    await signIn(page, owner.email)
    await page.goto('/settings')
    await section(page).getByLabel('Time zone').selectOption('Europe/Berlin')
    await section(page).getByRole('button', { name: 'Save time zone' }).click()
    await expect(section(page).getByRole('status')).toHaveText(
      'Time zone saved: the dashboard now counts days in Europe/Berlin',
    )
    await expect(section(page).getByLabel('Time zone')).toHaveValue('Europe/Berlin')
  })
})
