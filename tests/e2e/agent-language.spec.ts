import { randomUUID } from 'node:crypto'
import type { Locator, Page } from '@playwright/test'
import { BUILT_IN_TEXTS } from '../../app/lib/agents/built-in-texts'
import { createAccount, createInDialog, expect, signIn, test } from './helpers'

// The Behaviour tab's Language group (issue 36, docs/decisions/072): answering in one language, an owner's own
// translation, found again when editing. AGENT_LANGUAGE_SCREENSHOTS=<folder> also takes its pictures.
const SCREENSHOTS = process.env.AGENT_LANGUAGE_SCREENSHOTS

async function pick(page: Page, field: Locator, option: string) {
  await field.click()
  await page.getByRole('option', { name: option, exact: true }).click()
  await expect(field).toHaveValue(option)
}

/** The group at 1280 and 390 px wide, its messages section closed (`name`) or open on a language. */
async function screenshots(page: Page, dialog: Locator, name: string, last: Locator) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 })
    await dialog.getByRole('group', { name: 'Language' }).scrollIntoViewIfNeeded()
    await last.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SCREENSHOTS}/${name}-${width}.png` })
    const box = await last.boundingBox()
    expect(box && box.x + box.width).toBeLessThanOrEqual(width)
  }
  await page.setViewportSize({ width: 1280, height: 720 })
}

test('the Language group: answer in Spanish, write a Portuguese handoff, find both again when editing', async ({
  page,
}) => {
  await signIn(page, (await createAccount('Language Owner')).email)
  await expect(page).toHaveURL('/')
  await page.goto('/agents')
  await expect(page.getByText('No organization selected')).toBeVisible()
  await createInDialog(page, 'Language Org')
  await expect(page.getByText('No agents found')).toBeVisible()
  await page.getByRole('link', { name: 'Create Agent' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Create New Agent' })
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Polyglot Agent')
  await dialog.getByRole('textbox', { name: 'Readable ID' }).fill(`agent-${randomUUID().slice(0, 8)}`)
  await dialog.getByRole('textbox', { name: 'System Prompt' }).fill('You answer customer questions politely.')
  await dialog.getByRole('tab', { name: 'Behaviour' }).click()

  const answerIn = dialog.getByRole('textbox', { name: 'Answer in' })
  await expect(answerIn).toHaveValue("The customer's language")
  await pick(page, answerIn, 'Spanish')
  const section = dialog.getByText('Messages in other languages')
  if (SCREENSHOTS) await screenshots(page, dialog, 'language-closed', section)
  await section.click()
  const messagesIn = dialog.getByRole('textbox', { name: 'Messages in' })
  await expect(dialog.getByRole('textbox', { name: 'Handoff message in Spanish' })).toHaveValue(
    BUILT_IN_TEXTS.es.handoff,
  )
  await pick(page, messagesIn, 'Portuguese')
  const portuguese = dialog.getByRole('textbox', { name: 'Handoff message in Portuguese' })
  await portuguese.fill('A Ana da loja responde aqui.')
  await expect(dialog.getByRole('textbox', { name: 'Handoff message in Spanish' })).toBeHidden()
  if (SCREENSHOTS) {
    const noAnswer = dialog.getByRole('textbox', { name: 'No-answer message in Portuguese' })
    await screenshots(page, dialog, 'language-open', portuguese)
    await screenshots(page, dialog, 'language-open-end', noAnswer)
  }

  await dialog.getByRole('button', { name: 'Create Agent' }).click()
  await expect(page.getByText('Agent created successfully')).toBeVisible()
  await page.getByRole('article', { name: 'Polyglot Agent' }).getByRole('link', { name: /^View/ }).click()
  const details = page.getByRole('dialog', { name: 'Agent Details' })
  await expect(details).toContainText('Spanish; your own messages in Portuguese')
  await details.getByRole('link', { name: 'Edit Agent' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit Agent' })
  await edit.getByRole('tab', { name: 'Behaviour' }).click()
  await expect(edit.getByRole('textbox', { name: 'Answer in' })).toHaveValue('Spanish')
  await edit.getByText('Messages in other languages').click()
  // Opens on the agent's language; the Portuguese words were kept.
  await expect(edit.getByRole('textbox', { name: 'Messages in' })).toHaveValue('Spanish')
  await pick(page, edit.getByRole('textbox', { name: 'Messages in' }), 'Portuguese')
  await expect(edit.getByRole('textbox', { name: 'Handoff message in Portuguese' })).toHaveValue(
    'A Ana da loja responde aqui.',
  )
})
