import {
  createAccount,
  dismissCreateOrganization,
  expect,
  PASSWORD,
  signIn,
  signUp,
  test,
  uniqueEmail,
} from './helpers'

test('sign up, sign out, and sign back in to the page that was asked for', async ({ page }) => {
  const email = uniqueEmail()
  await signUp(page, { name: 'Ada Lovelace', email, password: PASSWORD })
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()
  await dismissCreateOrganization(page)

  await page.getByRole('link', { name: 'Settings' }).click()
  await expect(page.getByText('Ada Lovelace')).toBeVisible()
  await expect(page.getByText(email)).toBeVisible()
  await page.getByRole('button', { name: 'Sign Out' }).click()
  await expect(page).toHaveURL('/login')

  await page.goto('/channels')
  await expect(page).toHaveURL('/login?redirectTo=%2Fchannels')
  const form = page.getByRole('form', { name: 'Sign in' })
  await form.getByLabel('Email').fill(email)
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD)
  await form.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL('/channels')
  await expect(page.getByRole('heading', { name: 'Channels' })).toBeVisible()
  await expect(page.getByRole('dialog', { name: 'Create Organization' })).toBeVisible()
})

test('the sign-up checklist follows the password, and the button waits for every field', async ({ page }) => {
  await page.goto('/login?mode=signup')
  const form = page.getByRole('form', { name: 'Sign up' })
  const create = form.getByRole('button', { name: 'Create Account' })
  await expect(create).toBeDisabled()
  const checklist = form.getByRole('list', { name: 'Password requirements' })
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill('abc')
  await expect(checklist.getByText('One lowercase letter (met)')).toHaveCount(1)
  await expect(checklist.getByText('One uppercase letter (not met)')).toHaveCount(1)
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill('Abcdef1')
  await expect(checklist.getByText('(not met)')).toHaveCount(0)
  await form.getByLabel('Full Name').fill('A')
  await form.getByLabel('Email').fill(uniqueEmail())
  await form.getByLabel('Confirm Password').fill('Abcdef2')
  await expect(create).toBeEnabled()
  await create.click()
  await expect(form.getByText('Passwords do not match')).toBeVisible()
})

test('a wrong password shows the provider message in the red box', async ({ page }) => {
  const account = await createAccount()
  await page.goto('/login')
  await expect(
    page.getByRole('form', { name: 'Sign in' }).getByRole('button', { name: 'Sign In' }),
  ).toBeDisabled()
  await signIn(page, account.email, 'Wrong123')
  await expect(page.getByRole('alert')).toHaveText('Incorrect email or password.')
  await expect(page).toHaveURL(/\/login/)
})

test('forgot password sends the reset email and returns to sign-in after 3 s', async ({ page }) => {
  const account = await createAccount()
  await page.goto('/login')
  await page.getByRole('link', { name: 'Forgot password?' }).click()
  const form = page.getByRole('form', { name: 'Reset password' })
  await form.getByLabel('Email').fill(account.email)
  await form.getByRole('button', { name: 'Send Reset Link' }).click()
  await expect(page.getByText('Password reset email sent! Check your inbox.')).toBeVisible()
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible({ timeout: 5_000 })
})

test('a signed-in visit to /login says so and goes home after 3 s', async ({ page }) => {
  const account = await createAccount()
  await signIn(page, account.email)
  await expect(page).toHaveURL('/')
  await page.goto('/login')
  await expect(page.getByText("You're already logged in! Redirecting to home page...")).toBeVisible()
  const shownAt = Date.now()
  await page.waitForURL('/', { timeout: 6_000 })
  expect(Date.now() - shownAt).toBeGreaterThan(2_000)
})

test('unknown paths and signed-out visits go to /login', async ({ page }) => {
  await page.goto('/no/such/page')
  await expect(page).toHaveURL('/login')
  await page.goto('/agents')
  await expect(page).toHaveURL('/login?redirectTo=%2Fagents')
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('sign-in and sign-out work as plain forms', async ({ page }) => {
    const account = await createAccount('No Script')
    await signIn(page, account.email, account.password, '/login?redirectTo=%2Fsettings')
    await expect(page).toHaveURL('/settings')
    await expect(page.getByText('No Script')).toBeVisible()
    await page.getByRole('button', { name: 'Sign Out' }).click()
    await expect(page).toHaveURL('/login')
  })

  test('a wrong password shows the message', async ({ page }) => {
    const account = await createAccount()
    await signIn(page, account.email, 'Wrong123')
    await expect(page.getByRole('alert')).toHaveText('Incorrect email or password.')
  })
})
