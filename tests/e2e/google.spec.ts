import { routeFakeGapi } from './gapi-route'
import { dismissCreateOrganization, expect, test, uniqueEmail } from './helpers'

test('Google sign-in through the Auth emulator popup', async ({ page, context }) => {
  await routeFakeGapi(context)
  await page.goto('/login')
  await page.getByRole('tab', { name: 'Google' }).click()
  const popupPromise = page.waitForEvent('popup')
  await page.getByRole('button', { name: 'Sign in with Google' }).click()
  const popup = await popupPromise
  await popup.locator('#add-account-button').click()
  await popup.locator('#email-input').fill(uniqueEmail('google'))
  await popup.locator('#display-name-input').fill('Gina Google')
  await popup.locator('#sign-in').click()
  await expect(page).toHaveURL('/')
  await dismissCreateOrganization(page)
  await page.getByRole('link', { name: 'Settings' }).click()
  await expect(page.getByText('Gina Google')).toBeVisible()
})
