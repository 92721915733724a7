import { randomUUID } from 'node:crypto'
import type { Locator, Page } from '@playwright/test'
import { BEHAVIOUR_TEXTS } from '../../app/lib/agents/behaviour'
import { createAgent as postAgentForm } from './channel-helpers'
import { createAccount, createInDialog, expect, signIn, test } from './helpers'

// The agent form's Behaviour tab (issue #17), the Agent details that show it, and the Test Agent dialog when the
// agent would hand over.
const FAKE_MODEL_URL = process.env.E2E_FAKE_MODEL_URL
const SCREENSHOTS = process.env.BEHAVIOUR_SCREENSHOTS

async function signUpWithOrganization(page: Page, displayName = 'Behaviour Owner') {
  const account = await createAccount(displayName)
  await signIn(page, account.email)
  await expect(page).toHaveURL('/')
  await page.goto('/agents')
  await expect(page.getByText('No organization selected')).toBeVisible()
  await createInDialog(page, 'Behaviour Org')
  await expect(page.getByText('No agents found')).toBeVisible()
}

const card = (page: Page, name: string) => page.getByRole('article', { name })

async function openCreate(page: Page) {
  await page.getByRole('link', { name: 'Create Agent' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Create New Agent' })
  await expect(dialog).toBeVisible()
  return dialog
}

async function fillRequired(dialog: Locator, name: string) {
  await dialog.getByRole('tab', { name: 'Basic Info' }).click()
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name)
  await dialog.getByRole('textbox', { name: 'Readable ID' }).fill(`agent-${randomUUID().slice(0, 8)}`)
  await dialog.getByRole('textbox', { name: 'System Prompt' }).fill('You answer customer questions politely.')
}

const fields = (dialog: Locator) => ({
  wait: dialog.getByRole('textbox', { name: 'Wait for the customer to finish typing (seconds)' }),
  handoff: dialog.getByRole('switch', { name: /^Hand over when the customer asks/ }),
  handoffMessage: dialog.getByRole('textbox', { name: 'Handoff message' }),
  fallback: dialog.getByRole('textbox', { name: 'Fallback message' }),
  textOnly: dialog.getByRole('textbox', { name: 'Text-only message' }),
  officeHours: dialog.getByRole('switch', { name: 'Use office hours' }),
  timeZone: dialog.getByRole('textbox', { name: 'Time zone' }),
  day: (day: string) => dialog.getByRole('checkbox', { name: day, exact: true }),
  opens: (day: string) => dialog.getByRole('textbox', { name: `${day} opens` }),
  closes: (day: string) => dialog.getByRole('textbox', { name: `${day} closes` }),
  outsideMessage: dialog.getByRole('textbox', { name: 'Out-of-hours message' }),
})

test('the Behaviour tab: defaults, validation on its fields, saving, editing, and the details', async ({
  page,
}) => {
  const consoleErrors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      consoleErrors.push(message.text())
    }
  })
  await signUpWithOrganization(page)
  const dialog = await openCreate(page)
  await fillRequired(dialog, 'Patient Agent')
  const tab = (name: string) => dialog.getByRole('tab', { name })
  await tab('Behaviour').click()
  const f = fields(dialog)

  // A new agent's defaults.
  await expect(f.wait).toHaveValue('3')
  await expect(f.handoff).toBeChecked()
  await expect(f.handoffMessage).toHaveValue(BEHAVIOUR_TEXTS.handoffMessage)
  await expect(f.fallback).toHaveValue(BEHAVIOUR_TEXTS.fallbackMessage)
  await expect(f.textOnly).toHaveValue(BEHAVIOUR_TEXTS.unreadableMessage)
  await expect(
    dialog.getByText('Leave it empty to send nothing; the conversation is still marked'),
  ).toBeVisible()
  await expect(f.officeHours).not.toBeChecked()
  await expect(f.timeZone).toBeHidden()

  if (SCREENSHOTS) {
    await page.setViewportSize({ width: 1280, height: 900 })
    await f.officeHours.check()
    await expect(f.timeZone).toBeVisible()
    await dialog.screenshot({ path: `${SCREENSHOTS}/behaviour-tab-desktop.png` })
    await f.opens('Monday').scrollIntoViewIfNeeded()
    await dialog.screenshot({ path: `${SCREENSHOTS}/behaviour-tab-desktop-schedule.png` })
    await page.setViewportSize({ width: 390, height: 844 })
    await tab('Behaviour').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SCREENSHOTS}/behaviour-tab-390.png` })
    // All four tabs fit on a phone, none cut off.
    const list = await dialog.getByRole('tablist').boundingBox()
    const first = await tab('Basic Info').boundingBox()
    const last = await tab('Behaviour').boundingBox()
    expect(first && list && first.x >= list.x - 1).toBe(true)
    expect(last && list && last.x + last.width <= list.x + list.width + 1).toBe(true)
    await f.opens('Monday').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SCREENSHOTS}/behaviour-tab-390-schedule.png` })
    const box = await f.closes('Sunday').boundingBox()
    expect(box && box.x + box.width).toBeLessThanOrEqual(390)
    await page.setViewportSize({ width: 1280, height: 720 })
    await f.officeHours.uncheck()
  }

  // Out of range: the message on the field, and from another tab the form comes back to it.
  await f.wait.fill('45')
  await tab('Basic Info').click()
  await dialog.getByRole('button', { name: 'Create Agent' }).click()
  await expect(tab('Behaviour')).toHaveAttribute('aria-selected', 'true')
  await expect(dialog.getByText('The wait must be at most 30 seconds')).toBeVisible()
  await expect(f.wait).toBeFocused()
  await tab('Basic Info').click()
  await expect(tab('Behaviour')).toContainText('has errors')
  await tab('Behaviour').click()
  await f.wait.fill('5')
  await expect(dialog.getByText('The wait must be at most 30 seconds')).toBeHidden()
  await expect(tab('Behaviour')).not.toContainText('has errors')

  // Office hours: a day that closes before it opens, and an unknown time zone search.
  await f.officeHours.check()
  await expect(f.timeZone).toBeVisible()
  await f.timeZone.click()
  await f.timeZone.fill('Mars/Oly')
  await expect(page.getByText('No such time zone')).toBeVisible()
  await f.timeZone.fill('Europe/Berl')
  await page.getByRole('option', { name: 'Europe/Berlin', exact: true }).click()
  await expect(f.timeZone).toHaveValue('Europe/Berlin')
  await expect(f.day('Monday')).toBeChecked()
  await expect(f.day('Saturday')).not.toBeChecked()
  await expect(f.opens('Saturday')).toBeDisabled()
  await f.opens('Monday').fill('18:00')
  await f.closes('Monday').fill('09:00')
  await dialog.getByRole('button', { name: 'Create Agent' }).click()
  await expect(dialog.getByText('Closing time must be after opening time')).toBeVisible()
  await expect(f.closes('Monday')).toHaveAttribute('aria-invalid', 'true')
  await f.opens('Monday').fill('08:00')
  await f.closes('Monday').fill('12:30')
  await expect(dialog.getByText('Closing time must be after opening time')).toBeHidden()
  await f.day('Saturday').check()
  await expect(f.opens('Saturday')).toBeEnabled()
  await f.opens('Saturday').fill('10:00')
  await f.closes('Saturday').fill('14:00')

  // The out-of-hours message is required when it is what the agent does outside the hours.
  await expect(dialog.getByRole('radio', { name: /^Send the out-of-hours message/ })).toBeChecked()
  await f.outsideMessage.fill('')
  await dialog.getByRole('button', { name: 'Create Agent' }).click()
  await expect(dialog.getByText('The out-of-hours message is required')).toBeVisible()
  await f.outsideMessage.fill('We are closed; a person will answer in the morning.')

  await f.handoff.uncheck()
  await f.fallback.fill('')
  await dialog.getByRole('button', { name: 'Create Agent' }).click()
  await expect(page.getByText('Agent created successfully')).toBeVisible()
  await expect(dialog).toBeHidden()

  await card(page, 'Patient Agent').getByRole('link', { name: /^View/ }).click()
  const details = page.getByRole('dialog', { name: 'Agent Details' })
  const fact = (term: string) => details.locator(`dt:text-is("${term}") + dd`)
  await expect(details.getByRole('heading', { name: 'Behaviour' })).toBeVisible()
  await expect(fact('Wait for typing')).toHaveText('5 seconds')
  await expect(fact('Handoff')).toHaveText('Off')
  await expect(fact('Handoff message')).toHaveText(BEHAVIOUR_TEXTS.handoffMessage)
  await expect(fact('Fallback message')).toHaveText('None: nothing is sent')
  await expect(fact('Text-only message')).toHaveText(BEHAVIOUR_TEXTS.unreadableMessage)
  await expect(fact('Office hours')).toContainText('Mon 08:00–12:30')
  await expect(fact('Office hours')).toContainText('Tue–Fri 09:00–17:00')
  await expect(fact('Office hours')).toContainText('Sat 10:00–14:00')
  await expect(fact('Office hours')).toContainText('Time zone: Europe/Berlin')
  await expect(fact('Outside hours')).toHaveText('Send the out-of-hours message and leave it to a person')
  await expect(fact('Out-of-hours message')).toHaveText('We are closed; a person will answer in the morning.')

  // Editing shows the stored values; switching office hours off saves none.
  await details.getByRole('link', { name: 'Edit Agent' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit Agent' })
  await edit.getByRole('tab', { name: 'Behaviour' }).click()
  const e = fields(edit)
  await expect(e.wait).toHaveValue('5')
  await expect(e.handoff).not.toBeChecked()
  await expect(e.fallback).toHaveValue('')
  await expect(e.officeHours).toBeChecked()
  await expect(e.timeZone).toHaveValue('Europe/Berlin')
  await expect(e.closes('Monday')).toHaveValue('12:30')
  await expect(e.day('Saturday')).toBeChecked()
  await expect(e.day('Sunday')).not.toBeChecked()
  await e.officeHours.uncheck()
  await expect(e.timeZone).toBeHidden()
  await e.handoff.check()
  await e.wait.fill('0')
  await edit.getByRole('button', { name: 'Update Agent' }).click()
  await expect(page.getByText('Agent updated successfully')).toBeVisible()

  await card(page, 'Patient Agent').getByRole('link', { name: /^View/ }).click()
  await expect(fact('Wait for typing')).toHaveText('Off: each message is answered at once')
  await expect(fact('Handoff')).toHaveText('On')
  await expect(fact('Office hours')).toHaveText('Off: the agent answers at any time')
  await expect(details.locator('dt:text-is("Outside hours")')).toHaveCount(0)
  expect(consoleErrors).toEqual([])
})

test('the Test Agent dialog shows a handoff: the tool call, its reason and what the customer would get', async ({
  page,
}) => {
  expect(FAKE_MODEL_URL, 'playwright.config.ts points the app at the fake model').toBeTruthy()
  await signUpWithOrganization(page)
  // Posted without the Behaviour tab: a new agent's defaults, handoff on.
  await postAgentForm(page, 'Handoff Agent', 'Hands over when asked')
  await page.reload()
  await card(page, 'Handoff Agent').getByRole('link', { name: /^Test/ }).click()
  const dialog = page.getByRole('dialog', { name: 'Test Agent' })
  await expect(dialog).toBeVisible()

  const message = `Can I talk to a human? ${randomUUID().slice(0, 8)}`
  const reason = 'The customer asked for a person'
  await fetch(`${FAKE_MODEL_URL}/__fake/next`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ match: message, toolCall: { name: 'handoff', arguments: { reason } } }),
  })
  await dialog.getByRole('textbox', { name: 'Test Message' }).fill(message)
  await dialog.getByRole('button', { name: 'Test Agent' }).click()
  const handoff = dialog.getByRole('alert').filter({ hasText: 'The agent would hand over to a person' })
  await expect(handoff).toBeVisible()
  const fact = (term: string) => handoff.locator(`dt:text-is("${term}") + dd`)
  await expect(fact('Tool call')).toHaveText('handoff')
  await expect(fact('Reason')).toHaveText(reason)
  await expect(fact('Customer receives')).toHaveText(BEHAVIOUR_TEXTS.handoffMessage)
  await expect(handoff).toContainText('paused and marked Needs attention')
  await expect(dialog.getByText('Execution Details')).toBeVisible()

  // The model was offered the handoff tool.
  type ModelRequest = { body: { messages?: unknown[]; tools?: { function?: { name?: string } }[] } }
  const requests: ModelRequest[] = await (await fetch(`${FAKE_MODEL_URL}/__fake/requests`)).json()
  const sent = requests.find((r) => JSON.stringify(r.body.messages ?? []).includes(message))
  expect(sent?.body.tools?.map((tool) => tool.function?.name)).toContain('handoff')

  // The conversation goes on: the model reads the handoff turn, as its message, before the next one.
  const plain = `Just a question ${randomUUID().slice(0, 8)}`
  await dialog.getByRole('textbox', { name: 'Test Message' }).fill(plain)
  await dialog.getByRole('button', { name: 'Test Agent' }).click()
  await expect(dialog.getByText(`Echo: ${plain}`)).toBeVisible()
  await expect(handoff).toBeVisible()
  const followUp: ModelRequest[] = await (await fetch(`${FAKE_MODEL_URL}/__fake/requests`)).json()
  const history = JSON.stringify(
    followUp.find((r) => JSON.stringify(r.body.messages ?? []).includes(plain))?.body.messages,
  )
  expect(history).toContain(message)
  expect(history).toContain(BEHAVIOUR_TEXTS.handoffMessage)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the Behaviour fields post with the form, and the server checks them', async ({ page }) => {
    const account = await createAccount('No Script Behaviour')
    await signIn(page, account.email)
    await expect(page).toHaveURL('/')
    await page.goto('/organization')
    const orgForm = page.getByRole('form', { name: 'Create Organization' })
    await orgForm.getByPlaceholder('My Company').fill('Plain Behaviour Co')
    await orgForm.getByRole('button', { name: 'Create Organization' }).click()
    await expect(page).toHaveURL('/')

    await page.goto('/agents/new')
    const form = page.getByRole('form', { name: 'Create New Agent' })
    await expect(form.getByRole('group', { name: 'Behaviour' })).toBeVisible()
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Plain Behaviour')
    await form.getByRole('textbox', { name: 'Readable ID' }).fill(`plain-${randomUUID().slice(0, 8)}`)
    await form.getByRole('textbox', { name: 'System Prompt' }).fill('You reply without any JavaScript.')
    const wait = form.getByRole('textbox', { name: 'Wait for the customer to finish typing (seconds)' })
    await expect(wait).toHaveValue('3')
    await wait.fill('31')
    await form.getByRole('switch', { name: 'Use office hours' }).check()
    await form.getByRole('combobox', { name: 'Time zone' }).selectOption('Asia/Tokyo')
    await form.getByRole('textbox', { name: 'Friday closes' }).fill('08:00')
    await form.getByRole('button', { name: 'Create Agent' }).click()
    await expect(form.getByText('The wait must be at most 30 seconds')).toBeVisible()
    await expect(form.getByText('Closing time must be after opening time')).toBeVisible()
    // What was typed is kept.
    await expect(form.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Asia/Tokyo')
    await expect(form.getByRole('switch', { name: 'Use office hours' })).toBeChecked()

    await wait.fill('10')
    await form.getByRole('textbox', { name: 'Friday closes' }).fill('15:00')
    await form.getByRole('button', { name: 'Create Agent' }).click()
    await expect(page).toHaveURL('/agents')
    await card(page, 'Plain Behaviour').getByRole('link', { name: /^View/ }).click()
    const details = page.getByRole('region', { name: 'Agent Details' })
    await expect(details.locator('dt:text-is("Wait for typing") + dd')).toHaveText('10 seconds')
    await expect(details.locator('dt:text-is("Office hours") + dd')).toContainText('Mon–Thu 09:00–17:00')
    await expect(details.locator('dt:text-is("Office hours") + dd')).toContainText('Fri 09:00–15:00')
    await expect(details.locator('dt:text-is("Office hours") + dd')).toContainText('Time zone: Asia/Tokyo')
  })
})
