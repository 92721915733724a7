import { randomUUID } from 'node:crypto'
import type { Locator, Page } from '@playwright/test'
import { createAccount, createInDialog, expect, signIn, test } from './helpers'

const FAKE_MODEL_URL = process.env.E2E_FAKE_MODEL_URL
const SHOTS = process.env.E2E_SCREENSHOT_DIR

async function screenshot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
}

/** A signed-in user with an organization, on the Agents page. */
async function signUpWithOrganization(page: Page, displayName = 'Agent Owner') {
  const account = await createAccount(displayName)
  await signIn(page, account.email)
  await expect(page).toHaveURL('/')
  await page.goto('/agents')
  await expect(page.getByRole('heading', { name: 'Agents', level: 1 })).toBeVisible()
  await expect(page.getByText('No organization selected')).toBeVisible()
  await createInDialog(page, 'Agents Org')
  await expect(page.getByText('No agents found')).toBeVisible()
  return account
}

const uniqueId = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`
const card = (page: Page, name: string) => page.getByRole('article', { name })
const formDialog = (page: Page, title: 'Create New Agent' | 'Edit Agent') =>
  page.getByRole('dialog', { name: title })

async function openCreate(page: Page) {
  await page.getByRole('link', { name: 'Create Agent' }).first().click()
  const dialog = formDialog(page, 'Create New Agent')
  await expect(dialog).toBeVisible()
  return dialog
}

async function fillRequired(dialog: Locator, { name, readableId, systemPrompt }: Record<string, string>) {
  await dialog.getByRole('tab', { name: 'Basic Info' }).click()
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name)
  await dialog.getByRole('textbox', { name: 'Readable ID' }).fill(readableId)
  await dialog.getByRole('textbox', { name: 'System Prompt' }).fill(systemPrompt)
}

async function createAgent(page: Page, name: string, readableId = uniqueId('agent')) {
  const dialog = await openCreate(page)
  await fillRequired(dialog, { name, readableId, systemPrompt: 'You are a helpful support agent.' })
  await dialog.getByRole('button', { name: 'Create Agent' }).click()
  await expect(page.getByText('Agent created successfully')).toBeVisible()
  await expect(dialog).toBeHidden()
  await expect(card(page, name)).toBeVisible()
  return readableId
}

async function chooseOption(page: Page, field: Locator, option: string) {
  await field.click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

test('creating an agent with the defaults; the card, the details and a taken readable ID', async ({
  page,
}) => {
  const consoleErrors: string[] = []
  page.on('console', (message) => {
    // The refused duplicate is a 409 by design; the browser reports every non-2xx response.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      consoleErrors.push(message.text())
    }
  })
  await signUpWithOrganization(page, 'Dana Defaults')
  await expect(page.getByText('No agents found')).toBeVisible()
  await expect(page.getByText('Create your first agent to get started')).toBeVisible()

  const dialog = await openCreate(page)
  // Issue 34: the name, the instructions and the model on the first tab; the ID follows the name.
  const readable = dialog.getByRole('textbox', { name: 'Readable ID' })
  await expect(readable).toBeEnabled()
  await expect(readable).toHaveValue('')
  await expect(readable).not.toHaveAttribute('placeholder')
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Bäckerei Müller')
  await expect(readable).toHaveValue('backerei-muller')
  await expect(dialog.getByRole('textbox', { name: 'System Prompt' })).toBeVisible()
  await expect(dialog.getByRole('textbox', { name: 'Model Type' })).toHaveValue('Medium - Balanced')
  const slider = dialog.getByRole('slider', { name: 'Creativity Level' })
  await expect(slider).toHaveAttribute('aria-valuenow', '0.7')
  await expect(dialog.getByText('70% · Balanced')).toBeVisible()
  for (const mark of ['Focused', 'Balanced', 'Creative'])
    await expect(dialog.getByText(mark, { exact: true })).toBeVisible()
  // The slider moves by tenths and says so in percent.
  await slider.focus()
  await page.keyboard.press('ArrowLeft')
  await expect(dialog.getByText('60% · Balanced')).toBeVisible()
  await page.keyboard.press('ArrowRight')
  await dialog.getByRole('tab', { name: 'Advanced' }).click()
  await expect(dialog.getByRole('textbox', { name: 'Max Tokens' })).toHaveValue('1000')
  await expect(dialog.getByRole('textbox', { name: 'Top P' })).toHaveValue('0.9')
  await expect(dialog.getByRole('textbox', { name: 'Top K' })).toHaveValue('40')
  await expect(dialog.getByLabel('Status')).toHaveCount(0)

  const readableId = uniqueId('support')
  await fillRequired(dialog, {
    name: 'Support Bot',
    readableId,
    systemPrompt: 'You answer customer questions politely.',
  })
  await dialog.getByRole('tab', { name: 'Basic Info' }).click()
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Answers the questions customers ask most')
  await dialog.getByRole('button', { name: 'Create Agent' }).click()
  await expect(page.getByText('Agent created successfully')).toBeVisible()
  await expect(dialog).toBeHidden()

  const supportBot = card(page, 'Support Bot')
  await expect(supportBot).toContainText('Active')
  await expect(supportBot).toContainText('Answers the questions customers ask most')
  // Label then value: '0%' alone would also match 70% or 100%, 'Pro' a name with Pro in it.
  await expect(supportBot).toContainText(/Model\s*Medium/)
  await expect(supportBot).toContainText(/Creativity\s*70%/)
  const box = await supportBot.boundingBox()
  expect(box).toMatchObject({ width: 280, height: 240 })

  await supportBot.getByRole('link', { name: /^View/ }).click()
  const details = page.getByRole('dialog', { name: 'Agent Details' })
  await expect(details).toBeVisible()
  for (const text of [
    'Support Bot',
    readableId,
    'Medium - Balanced',
    '70% (Balanced)',
    '1000',
    '0.9',
    '40',
    'Dana Defaults',
    'You answer customer questions politely.',
  ]) {
    await expect(details.getByText(text, { exact: true })).toBeVisible()
  }
  await expect(details.getByText('Active', { exact: true })).toBeVisible()
  await expect(details.getByRole('link', { name: 'Test Agent' })).toBeVisible()
  await details.getByRole('link', { name: 'Edit Agent' }).click()
  await expect(formDialog(page, 'Edit Agent')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(formDialog(page, 'Edit Agent')).toBeHidden()
  await expect(page).toHaveURL('/agents')

  // The same readable ID again: the server refuses it, on the field, from whichever tab the user is on.
  const again = await openCreate(page)
  await fillRequired(again, { name: 'Second Bot', readableId, systemPrompt: 'Another helpful agent prompt.' })
  await again.getByRole('button', { name: 'Create Agent' }).click()
  await expect(
    page.getByText('Failed to create agent: An agent with this ID already exists in this organization'),
  ).toBeVisible()
  await expect(again.getByRole('tab', { name: 'Basic Info' })).toHaveAttribute('aria-selected', 'true')
  await expect(again.getByText('An agent with this ID already exists in this organization')).toBeVisible()
  await expect(again.getByRole('textbox', { name: 'Readable ID' })).toBeFocused()

  // Opened by its URL, a dialog is rendered by the server and hydrates without a mismatch (dates included).
  const viewHref = await supportBot.getByRole('link', { name: /^View/ }).getAttribute('href')
  await page.goto(viewHref ?? '')
  await expect(page.getByRole('dialog', { name: 'Agent Details' })).toContainText(readableId)
  expect(consoleErrors).toEqual([])
})

test('a template fills the form for the owner to edit in place; the buttons stay in view on every tab', async ({
  page,
}) => {
  await signUpWithOrganization(page, 'Template Owner')
  const dialog = await openCreate(page)
  const templates = dialog.getByRole('navigation', { name: 'Start from a template' })
  await expect(templates.getByRole('link', { name: 'Blank' })).toHaveAttribute('aria-current', 'true')
  await templates.getByRole('link', { name: 'Restaurant or café' }).click()
  await expect(page).toHaveURL('/agents/new?template=restaurant')
  await expect(templates.getByRole('link', { name: 'Restaurant or café' })).toHaveAttribute(
    'aria-current',
    'true',
  )
  const name = dialog.getByRole('textbox', { name: 'Name', exact: true })
  const prompt = dialog.getByRole('textbox', { name: 'System Prompt' })
  await expect(name).toHaveValue('Restaurant Host')
  await expect(dialog.getByRole('textbox', { name: 'Readable ID' })).toHaveValue('restaurant-host')
  await expect(prompt).toHaveValue(/^You are the host of \[restaurant name\]/)

  // Every tab is as tall as the others, and Cancel and Create Agent stay in view, on a desktop and a phone.
  const tab = (label: string) => dialog.getByRole('tab', { name: label })
  for (const viewport of [
    { width: 1280, height: 720 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport)
    const heights = new Set<number>()
    for (const label of ['Basic Info', 'Behaviour', 'Knowledge', 'Advanced']) {
      await tab(label).click()
      await expect(dialog.getByRole('button', { name: 'Create Agent' })).toBeInViewport({ ratio: 1 })
      await expect(dialog.getByRole('link', { name: 'Cancel' })).toBeInViewport({ ratio: 1 })
      if (viewport.width > 400) heights.add(Math.round((await dialog.boundingBox())?.height ?? 0))
    }
    if (viewport.width > 400) expect(heights.size, [...heights].join(', ')).toBe(1)
    await tab('Basic Info').click()
    await screenshot(page, `agent-template-${viewport.width}`)
  }
  await page.setViewportSize({ width: 1280, height: 720 })

  // Made theirs: the name (the ID follows it), the bracketed parts of the instructions.
  await name.fill('Casa Lucia Host')
  await expect(dialog.getByRole('textbox', { name: 'Readable ID' })).toHaveValue('casa-lucia-host')
  const written = (await prompt.inputValue()).replace('[restaurant name]', 'Casa Lucia')
  await prompt.fill(written)
  await dialog.getByRole('button', { name: 'Create Agent' }).click()
  await expect(page.getByText('Agent created successfully')).toBeVisible()
  await card(page, 'Casa Lucia Host').getByRole('link', { name: /^View/ }).click()
  const details = page.getByRole('dialog', { name: 'Agent Details' })
  await expect(details.getByText('casa-lucia-host', { exact: true })).toBeVisible()
  await expect(details.getByText(/^You are the host of Casa Lucia,/)).toBeVisible()
})

test('the form refuses values outside the limits, and shows where the errors are', async ({ page }) => {
  await signUpWithOrganization(page)
  const dialog = await openCreate(page)
  const tab = (name: string) => dialog.getByRole('tab', { name })

  // Submitting an empty form from the last tab: it goes to the first tab with an error.
  await tab('Advanced').click()
  await dialog.getByRole('button', { name: 'Create Agent' }).click()
  await expect(tab('Basic Info')).toHaveAttribute('aria-selected', 'true')
  await expect(dialog.getByText('Name must be at least 3 characters')).toBeVisible()
  await expect(dialog.getByText('ID must be at least 3 characters')).toBeVisible()
  await expect(dialog.getByRole('textbox', { name: 'Name', exact: true })).toBeFocused()
  await expect(dialog.getByText('System prompt must be at least 10 characters')).toBeVisible()
  await expect(tab('Advanced')).not.toContainText('has errors')

  const rows: [string, string, string][] = [
    ['Name', 'ab', 'Name must be at least 3 characters'],
    ['Name', 'a'.repeat(101), 'Name must be less than 100 characters'],
    ['Readable ID', 'ab', 'ID must be at least 3 characters'],
    ['Readable ID', 'Bad-ID', 'ID must contain only lowercase letters, numbers, and hyphens'],
    ['Readable ID', 'a'.repeat(51), 'ID must be less than 50 characters'],
    ['Description', 'd'.repeat(501), 'Description must be less than 500 characters'],
  ]
  for (const [label, value, message] of rows) {
    await dialog.getByRole('textbox', { name: label, exact: true }).fill(value)
    await expect(dialog.getByText(message)).toBeVisible()
  }
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('abc')
  await dialog.getByRole('textbox', { name: 'Readable ID' }).fill('a'.repeat(50))
  await dialog.getByRole('textbox', { name: 'Description' }).fill('d'.repeat(500))
  const prompt = dialog.getByRole('textbox', { name: 'System Prompt' })
  await prompt.fill('123456789')
  await expect(dialog.getByText('System prompt must be at least 10 characters')).toBeVisible()
  await prompt.fill('1234567890')
  await expect(dialog.getByText('System prompt must be at least 10 characters')).toBeHidden()
  await expect(tab('Basic Info')).not.toContainText('has errors')

  await tab('Advanced').click()
  const maxTokens = dialog.getByRole('textbox', { name: 'Max Tokens' })
  await maxTokens.fill('99')
  await dialog.getByRole('button', { name: 'Create Agent' }).click()
  await expect(dialog.getByText('Max tokens must be at least 100')).toBeVisible()
  await expect(tab('Advanced')).toHaveAttribute('aria-selected', 'true')
  await expect(tab('Advanced')).toContainText('has errors')
  await maxTokens.fill('8193')
  await expect(dialog.getByText('Max tokens must be at most 8192')).toBeVisible()
  await maxTokens.fill('8192')
  await dialog.getByRole('textbox', { name: 'Top P' }).fill('1.5')
  await expect(dialog.getByText('Top P must be at most 1')).toBeVisible()
  await dialog.getByRole('textbox', { name: 'Top P' }).fill('1')
  await dialog.getByRole('textbox', { name: 'Top K' }).fill('101')
  await expect(dialog.getByText('Top K must be at most 100')).toBeVisible()
  await dialog.getByRole('textbox', { name: 'Top K' }).fill('1')

  // Every value at its limit is accepted.
  await dialog.getByRole('button', { name: 'Create Agent' }).click()
  await expect(page.getByText('Agent created successfully')).toBeVisible()
  await card(page, 'abc').getByRole('link', { name: /^View/ }).click()
  const details = page.getByRole('dialog', { name: 'Agent Details' })
  await expect(details.getByText('8192', { exact: true })).toBeVisible()
  await expect(details.getByText('a'.repeat(50), { exact: true })).toBeVisible()
})

test('editing an agent, filtering by status and deleting (archiving) one', async ({ page }) => {
  await signUpWithOrganization(page)
  await createAgent(page, 'Sales Agent')
  await createAgent(page, 'Helper Agent')

  await card(page, 'Sales Agent').getByRole('button', { name: 'Agent actions' }).click()
  await page.getByRole('menuitem', { name: 'Edit' }).click()
  const edit = formDialog(page, 'Edit Agent')
  await expect(edit).toBeVisible()
  await expect(edit.getByRole('textbox', { name: 'Readable ID' })).toBeDisabled()
  await expect(edit.getByText('The readable ID cannot be changed after creation')).toBeVisible()
  await expect(edit.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Sales Agent')
  await edit.getByRole('textbox', { name: 'Name', exact: true }).fill('Sales Agent Pro')
  await chooseOption(page, edit.getByRole('textbox', { name: 'Model Type' }), 'Pro - Complex reasoning')
  await edit.getByRole('slider', { name: 'Creativity Level' }).focus()
  await page.keyboard.press('Home')
  await expect(edit.getByText('0% · Focused', { exact: true })).toBeVisible()
  await edit.getByRole('tab', { name: 'Advanced' }).click()
  await chooseOption(page, edit.getByRole('textbox', { name: 'Status' }), 'Inactive')
  await edit.getByRole('button', { name: 'Update Agent' }).click()
  await expect(page.getByText('Agent updated successfully')).toBeVisible()
  await expect(edit).toBeHidden()

  const sales = card(page, 'Sales Agent Pro')
  await expect(sales).toContainText('Inactive')
  await expect(sales).toContainText(/Model\s*Pro/)
  await expect(sales).toContainText(/Creativity\s*0%/)

  const filter = page.getByRole('textbox', { name: 'Filter by status' })
  await chooseOption(page, filter, 'Active')
  await expect(card(page, 'Helper Agent')).toBeVisible()
  await expect(sales).toBeHidden()
  await chooseOption(page, filter, 'Inactive')
  await expect(sales).toBeVisible()
  await expect(card(page, 'Helper Agent')).toBeHidden()
  await chooseOption(page, filter, 'Archived')
  await expect(page.getByText('No archived agents')).toBeVisible()
  await chooseOption(page, filter, 'All Status')

  await card(page, 'Helper Agent').getByRole('button', { name: 'Agent actions' }).click()
  await page.getByRole('menuitem', { name: 'Delete' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete Agent' })
  await expect(confirm).toContainText('This action cannot be undone')
  await expect(confirm).toContainText('archived and will no longer be available')
  await confirm.getByRole('button', { name: 'Delete Agent' }).click()
  await expect(page.getByText('Agent deleted successfully')).toBeVisible()
  await expect(confirm).toBeHidden()
  await expect(card(page, 'Helper Agent')).toContainText('Archived')

  await chooseOption(page, filter, 'Archived')
  await expect(card(page, 'Helper Agent')).toBeVisible()
  await expect(sales).toBeHidden()
  // The filter is only on the loaded list: a reload shows everything again.
  await page.reload()
  await expect(card(page, 'Sales Agent Pro')).toBeVisible()
  await expect(card(page, 'Helper Agent')).toBeVisible()
})

type FakeRequest = { body: { messages?: { role: string; content: unknown }[]; [key: string]: unknown } }

test('testing an agent against the model: the answer, the run details, and a failure', async ({ page }) => {
  expect(FAKE_MODEL_URL, 'playwright.config.ts points the app at the fake model').toBeTruthy()
  await signUpWithOrganization(page)
  await createAgent(page, 'Echo Agent')
  await card(page, 'Echo Agent').getByRole('link', { name: /^Test/ }).click()
  const dialog = page.getByRole('dialog', { name: 'Test Agent' })
  await expect(dialog).toBeVisible()
  for (const text of ['Medium - Balanced', '70%', 'Active', '1000']) {
    await expect(dialog.getByText(text, { exact: true })).toBeVisible()
  }
  await screenshot(page, 'test-agent-empty')

  // One place for each message: the field's error, no toast repeating it (issue 34).
  await dialog.getByRole('button', { name: 'Test Agent' }).click()
  await expect(dialog.getByText('Please enter a message to test')).toBeVisible()
  await expect(page.getByText('Please enter a message to test')).toHaveCount(1)

  const message = `Hello from ${uniqueId('e2e')}`
  await dialog.getByRole('textbox', { name: 'Test Message' }).fill(message)
  await dialog.getByRole('button', { name: 'Test Agent' }).click()
  await expect(dialog.getByText('Agent Response')).toBeVisible()
  await expect(dialog.getByText(`Echo: ${message}`)).toBeVisible()
  // The run's details are tucked under the answer.
  await expect(dialog.getByText(/^exec_[0-9a-f-]{36}$/)).toBeHidden()
  await dialog.getByText('Execution Details').click()
  await expect(dialog.getByText(/^exec_[0-9a-f-]{36}$/)).toBeVisible()
  for (const label of ['Model Used', 'Prompt Tokens', 'Completion Tokens', 'Total Tokens', 'Timestamp']) {
    await expect(dialog.getByText(label, { exact: true })).toBeVisible()
  }
  // The fake counts one token per word: "Echo:" and the message's words.
  const completion = dialog.locator('dt:text-is("Completion Tokens") + dd')
  await expect(completion).toHaveText(String(message.split(' ').length + 1))

  // The model got the agent's settings and the test message.
  const requests: FakeRequest[] = await (await fetch(`${FAKE_MODEL_URL}/__fake/requests`)).json()
  const sent = requests.find((r) => JSON.stringify(r.body.messages ?? []).includes(message))
  expect(sent?.body).toMatchObject({ temperature: 0.7, max_tokens: 1000, top_p: 0.9 })

  // A conversation: Enter sends the next message, and the model reads the first before it.
  const followUp = `And a second message ${uniqueId('e2e')}`
  const box = dialog.getByRole('textbox', { name: 'Test Message' })
  await expect(box).toHaveValue('')
  await box.fill(followUp)
  await box.press('Enter')
  await expect(dialog.getByText(`Echo: ${followUp}`)).toBeVisible()
  await expect(dialog.getByText(`Echo: ${message}`)).toBeVisible()
  const later: FakeRequest[] = await (await fetch(`${FAKE_MODEL_URL}/__fake/requests`)).json()
  const withHistory = JSON.stringify(
    later.find((r) => JSON.stringify(r.body.messages ?? []).includes(followUp))?.body.messages,
  )
  expect(withHistory).toContain(`Echo: ${message}`)
  await screenshot(page, 'test-agent-chat')

  const limited = `This one is rate limited ${uniqueId('e2e')}`
  await fetch(`${FAKE_MODEL_URL}/__fake/next`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // `match` keeps a test running in parallel from taking this one-shot failure.
    body: JSON.stringify({ status: 429, match: limited }),
  })
  await dialog.getByRole('textbox', { name: 'Test Message' }).fill(limited)
  await dialog.getByRole('button', { name: 'Test Agent' }).click()
  // The failure is said once, in the dialog; the conversation before it stays, and Start over clears it.
  await expect(
    dialog.getByRole('alert').filter({ hasText: /^Failed to test agent: .*rate limit/i }),
  ).toBeVisible()
  await expect(page.getByText(/Failed to test agent/)).toHaveCount(1)
  await screenshot(page, 'test-agent-error')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshot(page, 'test-agent-error-390')
  await page.setViewportSize({ width: 1280, height: 720 })
  await expect(dialog.getByText(`Echo: ${followUp}`)).toBeVisible()
  await dialog.getByRole('link', { name: 'Start over' }).click()
  await expect(dialog.getByRole('list', { name: 'Test conversation' })).toHaveCount(0)
  await expect(dialog.getByText(`Echo: ${message}`)).toHaveCount(0)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('creating, viewing and deleting an agent with plain forms', async ({ page }) => {
    const account = await createAccount('No Script Owner')
    await signIn(page, account.email)
    await expect(page).toHaveURL('/')
    await page.goto('/organization')
    const orgForm = page.getByRole('form', { name: 'Create Organization' })
    await orgForm.getByPlaceholder('My Company').fill('Plain Forms Co')
    await orgForm.getByRole('button', { name: 'Create Organization' }).click()
    await expect(page).toHaveURL('/')

    await page.goto('/agents')
    await expect(page.getByText('No agents found')).toBeVisible()
    await page.getByRole('link', { name: 'Create Agent' }).first().click()
    await expect(page).toHaveURL('/agents/new')
    const form = page.getByRole('form', { name: 'Create New Agent' })
    // Without tabs every section is on the page.
    for (const legend of ['Basic Info', 'Behaviour', 'Knowledge', 'Advanced']) {
      await expect(form.getByRole('group', { name: legend, exact: true })).toBeVisible()
    }
    await expect(form.getByRole('spinbutton', { name: 'Creativity Level' })).toHaveValue('0.7')
    await expect(form.getByRole('textbox', { name: 'Max Tokens' })).toHaveValue('1000')

    // Passes the browser's own checks; the server refuses it and keeps what was typed.
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('ab')
    const readableId = uniqueId('plain')
    await form.getByRole('textbox', { name: 'Readable ID' }).fill(readableId)
    await form
      .getByRole('combobox', { name: 'Model Type' })
      .selectOption({ label: 'Pro - Complex reasoning' })
    await form.getByRole('spinbutton', { name: 'Creativity Level' }).fill('0.5')
    await form
      .getByRole('textbox', { name: 'System Prompt' })
      .fill('You reply without any JavaScript at all.')
    await form.getByRole('button', { name: 'Create Agent' }).click()
    await expect(form.getByText('Name must be at least 3 characters')).toBeVisible()
    await expect(form.getByRole('textbox', { name: 'Readable ID' })).toHaveValue(readableId)
    await expect(form.getByRole('combobox', { name: 'Model Type' })).toHaveValue('pro')

    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Plain Agent')
    await form.getByRole('button', { name: 'Create Agent' }).click()
    await expect(page).toHaveURL('/agents')
    const plain = card(page, 'Plain Agent')
    await expect(plain).toContainText('Active')
    await expect(plain).toContainText(/Model\s*Pro/)
    await expect(plain).toContainText(/Creativity\s*50%/)

    await plain.getByRole('link', { name: /^View/ }).click()
    const details = page.getByRole('region', { name: 'Agent Details' })
    await expect(details.getByText(readableId, { exact: true })).toBeVisible()
    await expect(details.getByText('Pro - Complex reasoning', { exact: true })).toBeVisible()

    // A test run without JavaScript answers with the page, the result in it.
    await details.getByRole('link', { name: 'Test Agent' }).click()
    const testing = page.getByRole('region', { name: 'Test Agent' })
    await testing.getByRole('textbox', { name: 'Test Message' }).fill('Plain hello')
    await testing.getByRole('button', { name: 'Test Agent' }).click()
    await expect(testing.getByText('Echo: Plain hello')).toBeVisible()
    await expect(testing.getByText('Execution Details')).toBeVisible()
    // The conversation goes on without JavaScript: the page carries the turns so far; a blank message (which the
    // browser's own check lets through) is refused by the server and keeps them.
    await testing.getByRole('textbox', { name: 'Test Message' }).fill('   ')
    await testing.getByRole('button', { name: 'Test Agent' }).click()
    await expect(testing.getByText('Please enter a message to test')).toBeVisible()
    await expect(testing.getByText('Echo: Plain hello')).toBeVisible()
    await testing.getByRole('textbox', { name: 'Test Message' }).fill('Plain follow-up')
    await testing.getByRole('button', { name: 'Test Agent' }).click()
    await expect(testing.getByText('Echo: Plain follow-up')).toBeVisible()
    await expect(testing.getByText('Echo: Plain hello')).toBeVisible()

    await plain.getByLabel('Agent actions').click()
    await plain.getByRole('link', { name: 'Delete' }).click()
    const confirm = page.getByRole('region', { name: 'Delete Agent' })
    await expect(confirm).toContainText('This action cannot be undone')
    await confirm.getByRole('button', { name: 'Delete Agent' }).click()
    await expect(page).toHaveURL('/agents')
    await expect(card(page, 'Plain Agent')).toContainText('Archived')

    await page.getByLabel('Filter by status').selectOption('active')
    await page.getByRole('button', { name: 'Filter' }).click()
    await expect(page.getByText('No active agents')).toBeVisible()
  })
})
