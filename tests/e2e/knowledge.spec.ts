import type { Page } from '@playwright/test'
import { makePdf } from '../fakes/documents'
import { createAccount, createInDialog, expect, signIn, test } from './helpers'

// The Knowledge page (issue #18, docs/decisions/045): sources added in dialogs, processed by the worker while the
// page reloads itself, tried with a question, edited and deleted.

const EMPTY = 'Add your first FAQ or document so your agents answer from your facts'
const KNOWLEDGE_NO_MATCH = 'No passage matches. Add an FAQ with this question so your agents can answer it.'
const FAQ = {
  question: 'Do you ship to Austria?',
  answer: 'Yes, we ship to Austria within three working days for 6.90 EUR.',
}
const TEXT = {
  title: 'Returns policy',
  text: '# Returns\n\nUnworn items can be returned within 30 days of delivery for a full refund.',
}

/** A signed-in user with an organization of their own, on the Knowledge page reached from the sidebar. */
async function openKnowledge(page: Page, name = 'Knowledge Owner') {
  const account = await createAccount(name)
  await signIn(page, account.email)
  await expect(page).toHaveURL('/')
  await createInDialog(page, 'Knowledge Shop')
  await page.getByRole('link', { name: 'Knowledge', exact: true }).click()
  await expect(page).toHaveURL('/knowledge')
  await expect(page.getByRole('heading', { name: 'Knowledge', level: 1 })).toBeVisible()
  return account
}

const row = (page: Page, title: string) =>
  page.getByRole('table', { name: 'Knowledge sources' }).getByRole('row').filter({ hasText: title })

async function addFaq(page: Page, { question, answer }: typeof FAQ) {
  await page.getByRole('link', { name: 'Add FAQ' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Add FAQ' })
  await expect(dialog.getByRole('textbox', { name: 'Question' })).toBeFocused()
  await dialog.getByRole('textbox', { name: 'Question' }).fill(question)
  await dialog.getByRole('textbox', { name: 'Answer' }).fill(answer)
  await dialog.getByRole('button', { name: 'Add FAQ' }).click()
  await expect(page.getByText('FAQ added')).toBeVisible()
  await expect(dialog).toBeHidden()
}

async function addText(page: Page, { title, text }: typeof TEXT) {
  await page.getByRole('link', { name: 'Add text' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add Text' })
  await dialog.getByRole('textbox', { name: 'Title' }).fill(title)
  await dialog.getByRole('textbox', { name: 'Text' }).fill(text)
  await dialog.getByRole('button', { name: 'Add text' }).click()
  await expect(page.getByText('Text added')).toBeVisible()
  await expect(dialog).toBeHidden()
}

async function tryQuestion(page: Page, question: string) {
  const box = page.getByRole('search', { name: 'Try a question' })
  await box.getByRole('textbox', { name: 'Question' }).fill(question)
  await box.getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(`/knowledge?${new URLSearchParams({ q: question })}`)
}

test('adding an FAQ and a text, seeing them become Ready, trying a question, editing and deleting', async ({
  page,
}) => {
  await openKnowledge(page)
  await expect(page.getByText(EMPTY)).toBeVisible()

  // The form says what is missing, in the spec's style, and keeps the focus in the dialog.
  await page.getByRole('link', { name: 'Add FAQ' }).first().click()
  const faqDialog = page.getByRole('dialog', { name: 'Add FAQ' })
  await faqDialog.getByRole('button', { name: 'Add FAQ' }).click()
  await expect(faqDialog.getByText('Question is required')).toBeVisible()
  await expect(faqDialog.getByText('Answer is required')).toBeVisible()
  await expect(faqDialog.getByRole('textbox', { name: 'Question' })).toBeFocused()
  await faqDialog.getByRole('link', { name: 'Cancel' }).click()
  await expect(faqDialog).toBeHidden()

  await addFaq(page, FAQ)
  await addText(page, TEXT)
  // The page reloads itself until both are processed: no reload by hand.
  await expect(row(page, FAQ.question)).toContainText('Ready', { timeout: 30_000 })
  await expect(row(page, TEXT.title)).toContainText('Ready', { timeout: 30_000 })
  await expect(row(page, FAQ.question)).toContainText('FAQ')
  await expect(row(page, TEXT.title)).toContainText('Text')
  await expect(page.getByRole('status').filter({ hasText: 'being processed' })).toHaveCount(0)

  // Try a question: the FAQ is found, with its score.
  await tryQuestion(page, 'shipping to austria?')
  const found = page.getByRole('list', { name: 'Passages found' }).getByRole('listitem')
  await expect(found.first()).toContainText(FAQ.question)
  await expect(found.first()).toContainText(/\d+% match/)
  await expect(found.first()).toContainText('6.90 EUR')
  await expect(page.getByText("the share of the question's words found in the passage")).toBeVisible()

  // A question nothing answers offers an FAQ with that question.
  await tryQuestion(page, 'quantum entanglement')
  await expect(
    page.getByText('No passage matches. Add an FAQ with this question so your agents can answer it.'),
  ).toBeVisible()
  await page.getByRole('link', { name: 'Add an FAQ with this question' }).click()
  const prefilled = page.getByRole('dialog', { name: 'Add FAQ' })
  await expect(prefilled.getByRole('textbox', { name: 'Question' })).toHaveValue('quantum entanglement')
  await prefilled.getByRole('link', { name: 'Cancel' }).click()
  await expect(prefilled).toBeHidden()

  // Edit the FAQ: processed again, then found with its new answer.
  await row(page, FAQ.question)
    .getByRole('link', { name: `Edit: ${FAQ.question}` })
    .click()
  const edit = page.getByRole('dialog', { name: 'Edit Source' })
  await expect(edit.getByRole('textbox', { name: 'Question' })).toHaveValue(FAQ.question)
  await expect(edit.getByRole('textbox', { name: 'Answer' })).toHaveValue(FAQ.answer)
  await edit
    .getByRole('textbox', { name: 'Answer' })
    .fill('Yes, to Austria in two working days, free over 50 EUR.')
  await edit.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Source updated')).toBeVisible()
  await expect(edit).toBeHidden()
  await expect(row(page, FAQ.question)).toContainText('Ready', { timeout: 30_000 })
  await tryQuestion(page, 'Do you ship to Austria?')
  await expect(
    page.getByRole('list', { name: 'Passages found' }).getByRole('listitem').first(),
  ).toContainText('free over 50 EUR')

  // Delete the text, after a confirmation.
  await row(page, TEXT.title)
    .getByRole('link', { name: `Delete: ${TEXT.title}` })
    .click()
  const confirm = page.getByRole('dialog', { name: 'Delete Source' })
  await expect(confirm).toContainText('This action cannot be undone')
  await confirm.getByRole('button', { name: 'Delete source' }).click()
  await expect(page.getByText('Source deleted')).toBeVisible()
  await expect(confirm).toBeHidden()
  await expect(row(page, TEXT.title)).toHaveCount(0)
  await expect(row(page, FAQ.question)).toHaveCount(1)

  // Later (issue #18, attaching knowledge to agents): attach this FAQ to an agent, test the agent, and see the
  // source listed among the passages its run used.
})

test('the API: search is its own route (not a source id), and uploads over 10 MB are refused', async ({
  request,
}) => {
  const account = await createAccount('Knowledge API')
  const auth = { Authorization: `Bearer ${account.idToken}` }
  const org = await request.post('/api/v1/organizations', { headers: auth, data: { name: 'API Shop' } })
  expect(org.status()).toBe(201)
  const orgId: string = (await org.json()).data.id
  const base = `/api/v1/organizations/${orgId}/knowledge`

  const created = await request.post(base, { headers: auth, data: { kind: 'faq', ...FAQ } })
  expect(created.status()).toBe(201)
  const search = await request.post(`${base}/search`, { headers: auth, data: { query: 'ship to austria' } })
  expect(search.status()).toBe(200)
  expect((await search.json()).success).toBe(true)

  const upload = (bytes: number) =>
    request.post(base, {
      headers: auth,
      multipart: { file: { name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.alloc(bytes, 97) } },
    })
  // Just past 10 MB: the upload's parser stops at the limit.
  const over = await upload(10 * 1024 * 1024 + 10)
  expect([over.status(), (await over.json()).message]).toEqual([413, 'The file is larger than 10 MB'])
  // Far past it: the HTTP entry refuses the body before reading it, with the same words.
  const far = await upload(12 * 1024 * 1024)
  expect([far.status(), (await far.json()).message]).toEqual([413, 'The file is larger than 10 MB'])
  const small = await upload(1000)
  expect(small.status()).toBe(201)
  expect((await small.json()).data).toMatchObject({ kind: 'file', title: 'big.txt', status: 'processing' })
})

test('uploading a file shows its progress and the source becomes Ready', async ({ page }) => {
  await openKnowledge(page, 'Upload Owner')
  await page.getByRole('link', { name: 'Upload file' }).click()
  const dialog = page.getByRole('dialog', { name: 'Upload File' })
  const file = dialog.getByRole('button', { name: 'File', exact: true })
  await expect(file).toHaveAttribute('accept', '.txt,.md,.pdf,.docx')
  await dialog.getByRole('button', { name: 'Upload file' }).click()
  await expect(dialog.getByText('Choose a file to upload')).toBeVisible()

  await file.setInputFiles({
    name: 'opening-hours.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from('# Opening hours\n\nOur Berlin store opens at ten, Monday to Saturday.'),
  })
  await dialog.getByRole('textbox', { name: 'Title' }).fill('Opening hours')
  await dialog.getByRole('button', { name: 'Upload file' }).click()
  await expect(page.getByText('File uploaded')).toBeVisible()
  await expect(dialog).toBeHidden()
  await expect(row(page, 'Opening hours')).toContainText('opening-hours.md')
  await expect(row(page, 'Opening hours')).toContainText('Ready', { timeout: 30_000 })
})

test('the page on a desktop and a phone: empty, a list with every status, a dialog, the results', async ({
  page,
  request,
}, testInfo) => {
  const shot = (name: string) =>
    page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true, animations: 'disabled' })
  await page.setViewportSize({ width: 1280, height: 900 })
  const account = await openKnowledge(page, 'Layout Owner')
  await expect(page.getByText(EMPTY)).toBeVisible()
  await shot('desktop-empty')

  const auth = { Authorization: `Bearer ${account.idToken}` }
  const orgs = await request.get('/api/v1/organizations', { headers: auth })
  const orgId: string = (await orgs.json()).data[0].id
  const add = (data: Record<string, unknown>) =>
    request.post(`/api/v1/organizations/${orgId}/knowledge`, { headers: auth, data })
  await add({ kind: 'faq', ...FAQ })
  await add({ kind: 'text', ...TEXT })
  // An address that cannot be reached: the source fails, and says why.
  await add({ kind: 'url', url: 'https://unreachable.invalid/help', crawl: true, maxPages: 5 })
  await page.reload()
  await expect(row(page, FAQ.question)).toContainText('Ready', { timeout: 30_000 })
  await expect(row(page, 'unreachable.invalid')).toContainText('Failed', { timeout: 30_000 })
  // One still processing, seen before its job is done: a long PDF takes its job a while.
  const pages = Array.from({ length: 1500 }, (_, i) => [`Care note ${i}`, 'Wash at 30 degrees, inside out.'])
  await request.post(`/api/v1/organizations/${orgId}/knowledge`, {
    headers: auth,
    multipart: {
      file: { name: 'care.pdf', mimeType: 'application/pdf', buffer: Buffer.from(makePdf(pages)) },
    },
  })
  await page.reload()
  await shot('desktop-list')

  await tryQuestion(page, 'Do you ship to Austria?')
  await expect(page.getByRole('list', { name: 'Passages found' })).toBeVisible()
  await shot('desktop-results')
  await page.getByRole('link', { name: 'Add web page' }).click()
  await expect(page.getByRole('dialog', { name: 'Add Web Page' })).toBeVisible()
  await shot('desktop-dialog')

  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/knowledge')
  await expect(row(page, FAQ.question)).toBeVisible()
  // Nothing wider than the phone: the table is a card per source.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await shot('phone-list')
  await tryQuestion(page, 'Do you ship to Austria?')
  await expect(page.getByRole('list', { name: 'Passages found' })).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await shot('phone-results')
  await page.getByRole('link', { name: 'Add FAQ' }).click()
  await expect(page.getByRole('dialog', { name: 'Add FAQ' })).toBeVisible()
  await shot('phone-dialog')
})

test('words your customers use: saved in Knowledge settings, a question in those words finds the FAQ', async ({
  page,
  request,
}, testInfo) => {
  const shot = (name: string) =>
    page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true, animations: 'disabled' })
  await page.setViewportSize({ width: 1280, height: 900 })
  const account = await openKnowledge(page, 'Words Owner')
  const auth = { Authorization: `Bearer ${account.idToken}` }
  const orgId: string = (await (await request.get('/api/v1/organizations', { headers: auth })).json()).data[0]
    .id
  await request.post(`/api/v1/organizations/${orgId}/knowledge`, {
    headers: auth,
    data: {
      kind: 'faq',
      question: '¿Cuánto cuesta cambiar la pantalla del móvil?',
      answer: 'Cambiar la pantalla de un móvil cuesta desde 59 € y se hace en una hora.',
    },
  })
  await page.reload()
  await expect(row(page, 'pantalla del móvil')).toContainText('Ready', { timeout: 30_000 })
  await tryQuestion(page, 'se me rompió el chunche')
  await expect(page.getByText(KNOWLEDGE_NO_MATCH)).toBeVisible()

  await page.getByRole('link', { name: 'Add the words your customers use' }).click()
  await expect(page).toHaveURL('/settings/knowledge')
  const box = page.getByRole('textbox', { name: 'Groups of words, one per line' })
  await expect(box).toHaveValue('')
  await shot('knowledge-settings-empty')
  await box.fill('móvil, chunche\nroto')
  await page.getByRole('button', { name: 'Save words' }).click()
  await expect(page.getByText('Line 2: write at least two words that mean the same')).toBeVisible()
  await expect(box).toHaveValue('móvil, chunche\nroto')
  await shot('knowledge-settings-error')
  await box.fill('móvil, chunche, teléfono\nroto, estropeado, no funciona')
  await page.getByRole('button', { name: 'Save words' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Words saved' })).toBeVisible()
  await shot('knowledge-settings-saved')
  await page.setViewportSize({ width: 390, height: 844 })
  await shot('knowledge-settings-phone')

  await page.getByRole('link', { name: 'Back to Knowledge' }).click()
  await tryQuestion(page, 'se me rompió el chunche')
  await expect(
    page.getByRole('list', { name: 'Passages found' }).getByRole('listitem').first(),
  ).toContainText('cuesta desde 59 €')
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('adding an FAQ, uploading a file and trying a question are plain forms', async ({ page, request }) => {
    const account = await createAccount('No Script Owner')
    const org = await request.post('/api/v1/organizations', {
      headers: { Authorization: `Bearer ${account.idToken}` },
      data: { name: 'No Script Shop' },
    })
    expect(org.status()).toBe(201)
    await signIn(page, account.email)
    await expect(page).toHaveURL('/')
    await page.goto('/knowledge')
    await expect(page.getByText(EMPTY)).toBeVisible()

    // The dialog is a section of the page; a refused form comes back with its messages.
    await page.getByRole('link', { name: 'Add FAQ' }).first().click()
    await expect(page).toHaveURL('/knowledge/new/faq')
    const faq = page.getByRole('form', { name: 'Add FAQ' })
    await faq.getByRole('textbox', { name: 'Question' }).fill(FAQ.question)
    // Blank to the server (the browser's own check lets spaces through).
    await faq.getByRole('textbox', { name: 'Answer' }).fill('   ')
    await faq.getByRole('button', { name: 'Add FAQ' }).click()
    await expect(faq.getByText('Answer is required')).toBeVisible()
    await expect(faq.getByRole('textbox', { name: 'Question' })).toHaveValue(FAQ.question)
    await faq.getByRole('textbox', { name: 'Answer' }).fill(FAQ.answer)
    await faq.getByRole('button', { name: 'Add FAQ' }).click()
    await expect(page).toHaveURL('/knowledge')
    await expect(row(page, FAQ.question)).toBeVisible()

    await page.getByRole('link', { name: 'Upload file' }).click()
    const upload = page.getByRole('form', { name: 'Upload file' })
    await upload.getByRole('button', { name: 'File', exact: true }).setInputFiles({
      name: 'hours.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Our Berlin store opens at ten, Monday to Saturday.'),
    })
    await upload.getByRole('button', { name: 'Upload file' }).click()
    await expect(page).toHaveURL('/knowledge')
    await expect(row(page, 'hours.txt')).toBeVisible()

    // No self-reloading without JavaScript: reload until both are processed.
    await expect(async () => {
      await page.reload()
      await expect(row(page, FAQ.question)).toContainText('Ready', { timeout: 500 })
      await expect(row(page, 'hours.txt')).toContainText('Ready', { timeout: 500 })
    }).toPass({ timeout: 30_000 })
    await tryQuestion(page, 'when does the berlin store open')
    await expect(
      page.getByRole('list', { name: 'Passages found' }).getByRole('listitem').first(),
    ).toContainText('hours.txt')
  })
})
