import type { Browser, Page } from '@playwright/test'
import { apiUser, createOrg, type ApiUser } from './api-client'
import { dismissCreateOrganization, expect, signIn, test } from './helpers'

const switcher = (page: Page) => page.getByTestId('sidebar').getByRole('link', { name: /organization/i })
const members = (page: Page) => page.getByRole('region', { name: 'Organization members' })

/** A page of its own (own cookies) for a second person. */
async function pageFor(browser: Browser) {
  const context = await browser.newContext()
  return context.newPage()
}

/** An owner's organization with the person already a member (made over the API). */
async function memberOf(owner: ApiUser, person: ApiUser, name: string) {
  const org = await createOrg(owner, name)
  const invited = await owner.call<{ id: string }>('POST', `/organizations/${org.id}/invitations`, {
    body: { email: person.email },
  })
  expect((await person.call('POST', `/invitations/${invited.body.data.id}/accept`)).status).toBe(200)
  return org
}

test('an owner invites by email in Settings; the invitee accepts in the switcher', async ({
  page,
  browser,
  request,
}) => {
  test.slow() // two people sign in, one after the other
  const owner = await apiUser(request, 'Olivia Owner')
  const invitee = await apiUser(request, 'Ivan Invitee')
  await createOrg(owner, 'Invite Co')

  await signIn(page, owner.email)
  await expect(switcher(page)).toContainText('Invite Co')
  await page.getByRole('link', { name: 'Settings' }).click()
  // The spec's Settings texts stay.
  await expect(page.getByRole('heading', { name: 'Account Information' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Account Actions' })).toBeVisible()
  const section = members(page)
  await expect(section.getByText('No pending invitations')).toBeVisible()
  await expect(section.getByRole('table', { name: 'Members' })).toContainText(owner.email)

  const form = section.getByRole('form', { name: 'Invite a member' })
  await form.getByLabel('Email address').fill('not an email')
  await form.getByRole('button', { name: 'Send invitation' }).click()
  await expect(form.getByText('Please enter a valid email address.')).toBeVisible()
  await form.getByLabel('Email address').fill(`  ${invitee.email.toUpperCase()} `)
  await form.getByRole('button', { name: 'Send invitation' }).click()
  await expect(section.getByText('Invitation sent. They become a member when they accept it.')).toBeVisible()
  await expect(
    section.getByRole('button', { name: `Revoke the invitation to ${invitee.email}` }),
  ).toBeVisible()
  await expect(form.getByLabel('Email address')).toHaveValue('')
  // Invited people are not members until they accept.
  await expect(section.getByRole('table', { name: 'Members' })).not.toContainText(invitee.email)

  // The invitee signs in: told about the invitation in the dialog, answers it in the switcher.
  const inviteePage = await pageFor(browser)
  await signIn(inviteePage, invitee.email)
  await expect(inviteePage.getByRole('dialog', { name: 'Create Organization' })).toContainText(
    'You have been invited to Invite Co',
  )
  await dismissCreateOrganization(inviteePage)
  // The whole line: '1 pending invitation' is also in '11 pending invitations'.
  await expect(switcher(inviteePage).getByText('1 pending invitation', { exact: true })).toBeVisible()
  await switcher(inviteePage).click()
  const menu = inviteePage.getByRole('menu')
  await expect(menu.getByRole('group', { name: 'Invitation to Invite Co' })).toContainText(
    'Invited by Olivia Owner',
  )
  await menu.getByRole('menuitem', { name: 'Accept the invitation to Invite Co' }).click()
  await expect(inviteePage.getByText('You joined Invite Co')).toBeVisible()
  await expect(switcher(inviteePage)).toContainText('Invite Co')
  await expect(switcher(inviteePage)).toContainText('member · free')
  await expect(switcher(inviteePage)).not.toContainText('pending invitation')

  // The owner sees the new member and no pending invitation.
  await page.reload()
  await expect(section.getByRole('table', { name: 'Members' })).toContainText(invitee.email)
  await expect(section.getByText('No pending invitations')).toBeVisible()
})

test('an invitee declines in the switcher: no organization, and the invitation is gone', async ({
  page,
  request,
}) => {
  const owner = await apiUser(request, 'Owner')
  const decliner = await apiUser(request, 'Dana Decliner')
  const org = await createOrg(owner, 'Declined Co')
  await owner.call('POST', `/organizations/${org.id}/invitations`, { body: { email: decliner.email } })

  await signIn(page, decliner.email)
  await dismissCreateOrganization(page)
  await switcher(page).click()
  await page
    .getByRole('menu')
    .getByRole('menuitem', { name: 'Decline the invitation to Declined Co' })
    .click()
  await expect(page.getByText('Invitation declined')).toBeVisible()
  await expect(switcher(page)).toContainText('No organizations yet')
  await expect(switcher(page)).not.toContainText('pending invitation')
  await switcher(page).click()
  await expect(page.getByRole('menu')).not.toContainText('Declined Co')
  expect((await owner.call<unknown[]>('GET', `/organizations/${org.id}/invitations`)).body.data).toEqual([])
  expect((await decliner.call('GET', `/organizations/${org.id}`)).status).toBe(404)
})

test('an owner revokes an invitation; the invitee no longer sees it', async ({ page, browser, request }) => {
  test.slow() // two people sign in, one after the other
  const owner = await apiUser(request, 'Owner')
  const invitee = await apiUser(request, 'Revoked Person')
  await createOrg(owner, 'Revoke Co')
  await signIn(page, owner.email)
  await expect(page).toHaveURL('/')
  await page.goto('/settings')
  const form = members(page).getByRole('form', { name: 'Invite a member' })
  await form.getByLabel('Email address').fill(invitee.email)
  await form.getByRole('button', { name: 'Send invitation' }).click()
  await members(page)
    .getByRole('button', { name: `Revoke the invitation to ${invitee.email}` })
    .click()
  await expect(members(page).getByText('Invitation revoked')).toBeVisible()
  await expect(members(page).getByText('No pending invitations')).toBeVisible()

  const inviteePage = await pageFor(browser)
  await signIn(inviteePage, invitee.email)
  await dismissCreateOrganization(inviteePage)
  await expect(switcher(inviteePage)).not.toContainText('pending invitation')
})

test('a member leaves after confirming; the last owner is told why they cannot', async ({
  page,
  browser,
  request,
}) => {
  test.slow() // two people sign in, one after the other
  const owner = await apiUser(request, 'Owner')
  const member = await apiUser(request, 'Leaving Member')
  await createOrg(member, 'Own Co')
  await memberOf(owner, member, 'Left Co')

  await signIn(page, member.email)
  await switcher(page).click()
  await page
    .getByRole('menu')
    .getByRole('menuitem', { name: /Left Co/ })
    .click()
  await expect(switcher(page)).toContainText('Left Co')
  await page.getByRole('link', { name: 'Settings' }).click()
  await expect(members(page)).toContainText('You are a member of Left Co')

  await members(page).getByRole('link', { name: 'Leave organization' }).click()
  const dialog = page.getByRole('dialog', { name: 'Leave Left Co?' })
  await dialog.getByRole('link', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(switcher(page)).toContainText('Left Co')

  await members(page).getByRole('link', { name: 'Leave organization' }).click()
  await dialog.getByRole('button', { name: 'Leave organization' }).click()
  await expect(page.getByText('You left Left Co')).toBeVisible()
  await expect(dialog).toBeHidden()
  // The current organization falls back to the member's other one.
  await expect(switcher(page)).toContainText('Own Co')
  await switcher(page).click()
  await expect(page.getByRole('menu')).not.toContainText('Left Co')

  // The owner alone cannot leave, and is told why.
  const ownerPage = await pageFor(browser)
  await signIn(ownerPage, owner.email)
  await expect(ownerPage).toHaveURL('/')
  await ownerPage.goto('/settings')
  const leave = members(ownerPage).getByRole('button', { name: 'Leave organization' })
  await expect(leave).toBeDisabled()
  await expect(leave).toHaveAccessibleDescription(
    'You are the only owner of Left Co. An organization needs at least one owner, so you cannot leave it.',
  )
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('an invitation is accepted on the organizations page, and leaving is confirmed on the page', async ({
    page,
    request,
  }) => {
    const owner = await apiUser(request, 'Owner')
    const person = await apiUser(request, 'No Script Person')
    const org = await createOrg(owner, 'Plain Co')
    await owner.call('POST', `/organizations/${org.id}/invitations`, { body: { email: person.email } })

    await signIn(page, person.email)
    await expect(page).toHaveURL('/')
    await switcher(page).click()
    await expect(page).toHaveURL('/organization')
    await page.getByRole('button', { name: 'Accept the invitation to Plain Co' }).click()
    await expect(page).toHaveURL('/')
    await expect(switcher(page)).toContainText('Plain Co')
    await expect(switcher(page)).toContainText('member · free')

    await page.goto('/settings')
    await members(page).getByRole('link', { name: 'Leave organization' }).click()
    const confirm = page.getByRole('region', { name: 'Leave Plain Co?' })
    await confirm.getByRole('button', { name: 'Leave organization' }).click()
    await expect(page.getByText('You left Plain Co')).toBeVisible()
    await expect(switcher(page)).toContainText('No organizations yet')
  })
})

test('an invitation to an unconfirmed address waits: the switcher says why and sends the email again', async ({
  page,
  request,
}) => {
  const owner = await apiUser(request, 'Owner')
  const invitee = await apiUser(request, 'Una Unconfirmed', { emailConfirmed: false })
  const org = await createOrg(owner, 'Quiet Bakery')
  const invited = await owner.call<{ id: string }>('POST', `/organizations/${org.id}/invitations`, {
    body: { email: invitee.email },
  })
  // Signing in sends the confirmation email.
  await signIn(page, invitee.email)
  await expect(page).toHaveURL('/')
  await dismissCreateOrganization(page)
  await expect.poll(() => verifyEmailLinks(invitee.email)).toBe(1)

  await expect(switcher(page)).toContainText('1 pending invitation')
  await switcher(page).click()
  const menu = page.getByRole('menu')
  await expect(menu.getByText('Confirm your email address')).toBeVisible()
  await expect(
    menu.getByText(
      `An invitation is waiting for you. To see it and join, open the link we emailed to ${invitee.email}.`,
    ),
  ).toBeVisible()
  // The organization is not named before the address is confirmed.
  await expect(menu).not.toContainText('Quiet Bakery')
  await page.screenshot({ path: test.info().outputPath('switcher-waiting-1280.png') })
  await menu.getByRole('menuitem', { name: 'Send again' }).click()
  await expect(page.getByText(`Email sent to ${invitee.email}.`, { exact: false })).toBeVisible()
  await expect.poll(() => verifyEmailLinks(invitee.email)).toBe(2)

  // On a phone, the organizations page says the same, with the same button.
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/organization')
  await dismissCreateOrganization(page)
  await expect(page.getByRole('button', { name: 'Send again' })).toBeVisible()
  await expect(page.getByText('Quiet Bakery')).toHaveCount(0)
  await page.screenshot({ path: test.info().outputPath('organization-waiting-390.png'), fullPage: true })

  // Over the API too, accepting waits for the confirmed address.
  const refused = await invitee.call('POST', `/invitations/${invited.body.data.id}/accept`)
  expect(refused.status).toBe(403)
  expect(refused.body.message).toBe(
    'Please confirm your email address first: open the link in the email we sent you, then try again',
  )
})

/** How many confirmation emails (VERIFY_EMAIL links) the Auth emulator has sent to an address. */
async function verifyEmailLinks(email: string) {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099'
  const response = await fetch(`http://${host}/emulator/v1/projects/demo-replypilot/oobCodes`)
  const { oobCodes }: { oobCodes: { email: string; requestType: string }[] } = await response.json()
  return oobCodes.filter((code) => code.email === email && code.requestType === 'VERIFY_EMAIL').length
}
