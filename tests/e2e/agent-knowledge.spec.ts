import { randomUUID } from 'node:crypto'
import type { Locator, Page } from '@playwright/test'
import { AGENT_KNOWLEDGE_DEFAULTS, NO_ANSWER } from '../../app/lib/knowledge/knowledge'
import { createAgent as postAgentForm } from './channel-helpers'
import { createAccount, createInDialog, expect, signIn, test } from './helpers'

// The agent form's Knowledge tab (issue #18), the Agent details that show it, and Test Agent with and without
// knowledge.
const SCREENSHOTS = process.env.KNOWLEDGE_SCREENSHOTS
/** The shop's knowledge for the Test Agent test (a question matches the first; another matches nothing). */
const SHOP_FAQS = [
  {
    question: 'How much does shipping cost?',
    answer: 'Standard shipping within Germany costs 4.90 EUR and is free on orders over 50 EUR.',
  },
  { question: 'What is your returns policy?', answer: 'Unworn items can be returned within 30 days.' },
  { question: 'When is the Berlin store open?', answer: 'Monday to Saturday from 10:00 to 19:00.' },
]

async function signUpWithOrganization(page: Page, organization = 'Knowledge Org') {
  const account = await createAccount('Knowledge Owner')
  await signIn(page, account.email)
  await expect(page).toHaveURL('/')
  await page.goto('/agents')
  await expect(page.getByText('No organization selected')).toBeVisible()
  await createInDialog(page, organization)
  await expect(page.getByText('No agents found')).toBeVisible()
}

const card = (page: Page, name: string) => page.getByRole('article', { name })

const fields = (dialog: Locator) => ({
  all: dialog.getByRole('radio', { name: "All of the organization's knowledge" }),
  selected: dialog.getByRole('radio', { name: 'Selected sources' }),
  none: dialog.getByRole('radio', { name: 'None (the system prompt only)' }),
  passages: dialog.getByRole('textbox', { name: 'Passages per answer' }),
  relevance: dialog.getByRole('slider', { name: 'Minimum relevance' }),
  noAnswer: dialog.getByRole('textbox', { name: 'No-answer message' }),
})

test('the Knowledge tab: defaults, "Selected" needs a source, saving None, the details and Test Agent', async ({
  page,
}) => {
  const consoleErrors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      consoleErrors.push(message.text())
    }
  })
  await signUpWithOrganization(page)
  await page.getByRole('link', { name: 'Create Agent' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Create New Agent' })
  await expect(dialog).toBeVisible()
  const tab = (name: string) => dialog.getByRole('tab', { name })
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Grounded Agent')
  await dialog.getByRole('textbox', { name: 'Readable ID' }).fill(`grounded-${randomUUID().slice(0, 8)}`)
  await dialog.getByRole('textbox', { name: 'System Prompt' }).fill('You answer from what the shop knows.')

  await tab('Knowledge').click()
  const f = fields(dialog)
  // A new agent's defaults: all of the knowledge.
  await expect(f.all).toBeChecked()
  await expect(f.passages).toHaveValue(String(AGENT_KNOWLEDGE_DEFAULTS.knowledgePassages))
  await expect(f.relevance).toHaveAttribute(
    'aria-valuenow',
    String(AGENT_KNOWLEDGE_DEFAULTS.knowledgeMinRelevance),
  )
  await expect(f.noAnswer).toHaveValue(AGENT_KNOWLEDGE_DEFAULTS.knowledgeNoAnswerMessage)
  await expect(dialog.getByText('No knowledge yet')).toBeHidden()

  // "Selected sources" in an organization without any: the way to add some, and the form refuses to save.
  await f.selected.check()
  await expect(dialog.getByText('No knowledge yet')).toBeVisible()
  await expect(dialog.getByRole('link', { name: 'Knowledge' })).toHaveAttribute('href', '/knowledge')
  if (SCREENSHOTS) {
    await page.setViewportSize({ width: 1280, height: 900 })
    await dialog.screenshot({ path: `${SCREENSHOTS}/knowledge-tab-desktop.png` })
    await page.setViewportSize({ width: 390, height: 844 })
    await tab('Knowledge').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SCREENSHOTS}/knowledge-tab-390.png` })
  }
  // All four tabs fit on a phone, none cut off.
  await page.setViewportSize({ width: 390, height: 844 })
  const list = await dialog.getByRole('tablist').boundingBox()
  for (const name of ['Basic Info', 'Behaviour', 'Knowledge', 'Advanced']) {
    const box = await tab(name).boundingBox()
    expect(box && list && box.x >= list.x - 1 && box.x + box.width <= list.x + list.width + 1, name).toBe(
      true,
    )
  }
  await page.setViewportSize({ width: 1280, height: 720 })

  await tab('Basic Info').click()
  await dialog.getByRole('button', { name: 'Create Agent' }).click()
  await expect(tab('Knowledge')).toHaveAttribute('aria-selected', 'true')
  await expect(dialog.getByText('Select at least one knowledge source')).toBeVisible()
  await tab('Basic Info').click()
  await expect(tab('Knowledge')).toContainText('has errors')
  await tab('Knowledge').click()

  // Out of range.
  await f.all.check()
  await f.passages.fill('11')
  await dialog.getByRole('button', { name: 'Create Agent' }).click()
  await expect(dialog.getByText('Passages must be between 1 and 10')).toBeVisible()
  await f.passages.fill('3')
  await expect(dialog.getByText('Passages must be between 1 and 10')).toBeHidden()

  // None: saved with the other settings kept.
  await f.none.check()
  await expect(f.passages).toBeHidden()
  await dialog.getByRole('button', { name: 'Create Agent' }).click()
  await expect(page.getByText('Agent created successfully')).toBeVisible()
  await expect(dialog).toBeHidden()

  await card(page, 'Grounded Agent').getByRole('link', { name: /^View/ }).click()
  const details = page.getByRole('dialog', { name: 'Agent Details' })
  const fact = (term: string) => details.locator(`dt:text-is("${term}") + dd`)
  await expect(details.getByRole('heading', { name: 'Knowledge' })).toBeVisible()
  await expect(fact('Answers from')).toHaveText('None (the system prompt only)')
  await expect(details.locator('dt:text-is("Passages")')).toHaveCount(0)

  // Editing shows what was stored; back to all of the knowledge, stricter, and no message.
  await details.getByRole('link', { name: 'Edit Agent' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit Agent' })
  await edit.getByRole('tab', { name: 'Knowledge' }).click()
  const e = fields(edit)
  await expect(e.none).toBeChecked()
  await e.all.check()
  await expect(e.passages).toHaveValue('3')
  await e.relevance.focus()
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight') // 0.2 → 0.4 in steps of 0.05
  await expect(e.relevance).toHaveAttribute('aria-valuenow', '0.4')
  await e.noAnswer.fill('')
  await edit.getByRole('button', { name: 'Update Agent' }).click()
  await expect(page.getByText('Agent updated successfully')).toBeVisible()

  await card(page, 'Grounded Agent').getByRole('link', { name: /^View/ }).click()
  await expect(fact('Answers from')).toHaveText("All of the organization's knowledge")
  await expect(fact('Passages')).toHaveText('Up to 3 per answer')
  await expect(fact('Minimum relevance')).toHaveText('40%')
  await expect(fact('No-answer message')).toHaveText('None: nothing is sent')

  // Without any knowledge in the organization the agent answers from its prompt, as before: no sources, no miss.
  await details.getByRole('link', { name: 'Test Agent' }).click()
  const test = page.getByRole('dialog', { name: 'Test Agent' })
  const question = `What does shipping cost? ${randomUUID().slice(0, 8)}`
  await test.getByRole('textbox', { name: 'Test Message' }).fill(question)
  await test.getByRole('button', { name: 'Test Agent' }).click()
  await expect(test.getByText(`Echo: ${question}`)).toBeVisible()
  await expect(test.getByText('Sources used')).toHaveCount(0)
  await expect(test.getByText('Not in the knowledge or the instructions')).toHaveCount(0)
  await expect(test.getByText('No passage of the knowledge matched')).toHaveCount(0)
  if (SCREENSHOTS) {
    await test.screenshot({ path: `${SCREENSHOTS}/test-agent-no-knowledge.png` })
  }
  expect(consoleErrors).toEqual([])
})

test('Test Agent lists the sources its answer used, or what the customer gets when none matches', async ({
  page,
}) => {
  const organization = `Knowledge Shop ${randomUUID().slice(0, 8)}`
  await signUpWithOrganization(page, organization)
  // The shop's FAQs, added on the Knowledge page and processed by the worker.
  await page.goto('/knowledge')
  for (const faq of SHOP_FAQS) {
    await page.getByRole('link', { name: 'Add FAQ' }).first().click()
    const add = page.getByRole('dialog', { name: 'Add FAQ' })
    await add.getByRole('textbox', { name: 'Question' }).fill(faq.question)
    await add.getByRole('textbox', { name: 'Answer' }).fill(faq.answer)
    await add.getByRole('button', { name: 'Add FAQ' }).click()
    await expect(add).toBeHidden()
  }
  const sourcesTable = page.getByRole('table', { name: 'Knowledge sources' })
  for (const faq of SHOP_FAQS) {
    await expect(sourcesTable.getByRole('row').filter({ hasText: faq.question })).toContainText('Ready', {
      timeout: 30_000,
    })
  }
  await page.goto('/agents')
  // Posted without the Knowledge tab: a new agent's defaults, all of the knowledge.
  await postAgentForm(page, 'Shop Agent', 'Answers from the FAQ')
  await page.reload()
  await card(page, 'Shop Agent').getByRole('link', { name: /^Test/ }).click()
  const dialog = page.getByRole('dialog', { name: 'Test Agent' })
  // The chat's newest turn: each answer keeps its own sources and details.
  const turn = () => dialog.getByRole('list', { name: 'Test conversation' }).locator(':scope > li').last()
  const modelUsed = () => turn().locator('dt:text-is("Model Used") + dd')
  await dialog.getByRole('textbox', { name: 'Test Message' }).fill('How much does shipping cost?')
  await dialog.getByRole('button', { name: 'Test Agent' }).click()
  await expect(dialog.getByText('Echo: How much does shipping cost?')).toBeVisible()
  const sources = turn().getByRole('region', { name: 'Sources used' })
  const first = sources.getByRole('listitem').first()
  await expect(first).toContainText('How much does shipping cost?')
  await expect(first).toContainText('relevant')
  await expect(first.getByText(/costs 4\.90 EUR/)).toBeHidden()
  await first.locator('summary').click()
  await expect(first.getByText(/costs 4\.90 EUR/)).toBeVisible()
  if (SCREENSHOTS) {
    await page.setViewportSize({ width: 1280, height: 900 })
    await sources.scrollIntoViewIfNeeded()
    await dialog.screenshot({ path: `${SCREENSHOTS}/test-agent-sources-desktop.png` })
    await page.setViewportSize({ width: 390, height: 844 })
    await sources.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SCREENSHOTS}/test-agent-sources-390.png` })
    await page.setViewportSize({ width: 1280, height: 720 })
  }

  // No passage matches: the model is asked all the same, and says it when it finds no answer in its instructions.
  await dialog.getByRole('textbox', { name: 'Test Message' }).fill('Do you repair vintage typewriters?')
  await dialog.getByRole('button', { name: 'Test Agent' }).click()
  await expect(turn().getByText('Echo: Do you repair vintage typewriters?')).toBeVisible()
  await expect(turn()).toContainText(
    'No passage of the knowledge matched: answered from the agent’s instructions.',
  )
  const pens = `Do you sell fountain pens? ${randomUUID().slice(0, 8)}`
  await fetch(`${process.env.E2E_FAKE_MODEL_URL}/__fake/next`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ match: pens, reply: NO_ANSWER }),
  })
  await dialog.getByRole('textbox', { name: 'Test Message' }).fill(pens)
  await dialog.getByRole('button', { name: 'Test Agent' }).click()
  const miss = turn().getByRole('alert').filter({ hasText: 'Not in the knowledge or the instructions' })
  await expect(miss).toBeVisible()
  await expect(miss).toContainText(AGENT_KNOWLEDGE_DEFAULTS.knowledgeNoAnswerMessage)
  await expect(miss).toContainText('No passage matched, and the model found no answer in the instructions')
  await expect(turn().getByRole('region', { name: 'Sources used' })).toHaveCount(0)
  await expect(modelUsed()).not.toHaveText('None (not asked)')
  // The first answer is still there above, with its sources.
  await expect(dialog.getByText('Echo: How much does shipping cost?')).toBeVisible()
  if (SCREENSHOTS) {
    await page.setViewportSize({ width: 390, height: 844 })
    await miss.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SCREENSHOTS}/test-agent-miss-390.png` })
    await page.setViewportSize({ width: 1280, height: 720 })
  }

  // A passage matches some words but does not answer: the model says so, the customer would get the same message.
  const unanswered = `Can I pay for shipping in bitcoin? ${randomUUID().slice(0, 8)}`
  await fetch(`${process.env.E2E_FAKE_MODEL_URL}/__fake/next`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ match: unanswered, reply: NO_ANSWER }),
  })
  await dialog.getByRole('textbox', { name: 'Test Message' }).fill(unanswered)
  await dialog.getByRole('button', { name: 'Test Agent' }).click()
  const notAnswered = turn().getByRole('alert').filter({ hasText: 'The knowledge found does not answer it' })
  await expect(notAnswered).toBeVisible()
  await expect(notAnswered).toContainText(AGENT_KNOWLEDGE_DEFAULTS.knowledgeNoAnswerMessage)
  await expect(notAnswered).toContainText(
    'The model read the passages below and the instructions, and found no answer in them',
  )
  await expect(dialog.getByText(NO_ANSWER)).toHaveCount(0)
  await expect(
    turn().getByRole('region', { name: 'Sources used' }).getByRole('listitem').first(),
  ).toContainText('How much does shipping cost?')
  await expect(modelUsed()).not.toHaveText('None (not asked)')
  if (SCREENSHOTS) {
    await dialog.screenshot({ path: `${SCREENSHOTS}/test-agent-unanswered-desktop.png` })
    await page.setViewportSize({ width: 390, height: 844 })
    await notAnswered.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SCREENSHOTS}/test-agent-unanswered-390.png` })
  }
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the Knowledge fields post with the form, and the server checks them', async ({ page }) => {
    const account = await createAccount('No Script Knowledge')
    await signIn(page, account.email)
    await expect(page).toHaveURL('/')
    await page.goto('/organization')
    const orgForm = page.getByRole('form', { name: 'Create Organization' })
    await orgForm.getByPlaceholder('My Company').fill('Plain Knowledge Co')
    await orgForm.getByRole('button', { name: 'Create Organization' }).click()
    await expect(page).toHaveURL('/')

    await page.goto('/agents/new')
    const form = page.getByRole('form', { name: 'Create New Agent' })
    await expect(form.getByRole('group', { name: 'Knowledge', exact: true })).toBeVisible()
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Plain Knowledge')
    await form.getByRole('textbox', { name: 'Readable ID' }).fill(`plain-${randomUUID().slice(0, 8)}`)
    await form.getByRole('textbox', { name: 'System Prompt' }).fill('You reply without any JavaScript.')
    await expect(form.getByRole('radio', { name: "All of the organization's knowledge" })).toBeChecked()
    await expect(form.getByText('No knowledge yet')).toBeVisible()
    await form.getByRole('radio', { name: 'Selected sources' }).check()
    const relevance = form.getByRole('textbox', { name: 'Minimum relevance' })
    await expect(relevance).toHaveValue(String(AGENT_KNOWLEDGE_DEFAULTS.knowledgeMinRelevance))
    await relevance.fill('1.5')
    await form.getByRole('button', { name: 'Create Agent' }).click()
    await expect(form.getByText('Select at least one knowledge source')).toBeVisible()
    await expect(form.getByText('Minimum relevance must be between 0 and 1')).toBeVisible()
    await expect(form.getByRole('radio', { name: 'Selected sources' })).toBeChecked()

    await form.getByRole('radio', { name: 'None (the system prompt only)' }).check()
    await relevance.fill('0.45')
    await form.getByRole('button', { name: 'Create Agent' }).click()
    await expect(page).toHaveURL('/agents')
    await card(page, 'Plain Knowledge').getByRole('link', { name: /^View/ }).click()
    const details = page.getByRole('region', { name: 'Agent Details' })
    await expect(details.locator('dt:text-is("Answers from") + dd')).toHaveText(
      'None (the system prompt only)',
    )
  })
})
