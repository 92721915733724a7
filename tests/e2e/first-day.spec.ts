import type { Locator, Page } from '@playwright/test'
import { channelCard, deliverText, registerBot, telegramCalls } from './channel-helpers'
import { createAccount, createInDialog, expect, signIn, test } from './helpers'

// Issue 34: a new owner's first day, from the empty dashboard to a customer answered, as a person does it — every
// click and every field counted, on a desktop and on a phone.

const SHOTS = process.env.E2E_SCREENSHOT_DIR

/** The spec's own words that name webhooks; anything else on a screen would be jargon for a business owner. */
const SPEC_WEBHOOK_TEXTS = [
  'Webhook Subscription',
  'Webhook URL',
  'All messages and webhook subscriptions will be removed',
  'Failed to update webhook subscription',
]
const JARGON = /webhook|polling|getUpdates/i
/** A configuration name, such as PUBLIC_URL or META_APP_ID. */
const SETTING_NAME = /\b[A-Z]{2,}_[A-Z_]{2,}\b/

/** Clicks and fields, counted: what the owner does by hand. */
class Hands {
  count = 0
  constructor(
    private readonly page: Page,
    private readonly uid: string,
    private readonly shots: string,
  ) {}

  async click(target: Locator) {
    this.count += 1
    await target.click()
  }

  async fill(target: Locator, value: string) {
    this.count += 1
    await target.fill(value)
  }

  /** Looks at the screen as the owner does: no configuration names, protocol words or raw ids; a screenshot. */
  async look(name: string) {
    const text = SPEC_WEBHOOK_TEXTS.reduce(
      (shown, allowed) => shown.replaceAll(allowed, ''),
      await this.page.locator('body').innerText(),
    )
    expect(text, name).not.toMatch(JARGON)
    expect(text, name).not.toMatch(SETTING_NAME)
    expect(text, name).not.toContain(this.uid)
    if (SHOTS)
      await this.page.screenshot({ path: `${SHOTS}/first-day-${this.shots}-${name}.png`, fullPage: true })
  }
}

for (const { label, viewport, budget } of [
  // 13 on a desktop; a phone opens the menu once more to reach the dashboard.
  { label: 'desktop', viewport: { width: 1280, height: 800 }, budget: 13 },
  { label: 'phone', viewport: { width: 390, height: 844 }, budget: 14 },
]) {
  test.describe(`on a ${label}`, () => {
    test.use({ viewport, timezoneId: 'America/Sao_Paulo' })

    test('from the empty dashboard to a customer answered, in at most 15 clicks and fields', async ({
      page,
    }) => {
      const account = await createAccount('Lucia Bakery')
      await signIn(page, account.email)
      await expect(page).toHaveURL('/')
      await createInDialog(page, 'Padaria Lucia')
      const hands = new Hands(page, account.uid, label)
      const checklist = page.getByRole('list', { name: 'Get started' })
      await expect(checklist).toBeVisible()
      await hands.look('1-dashboard')

      // An agent from a template, kept as it comes.
      await hands.click(checklist.getByRole('link', { name: 'Create your agent' }))
      const create = page.getByRole('dialog', { name: 'Create New Agent' })
      await hands.click(create.getByRole('link', { name: 'Restaurant or café' }))
      await expect(create.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Restaurant Host')
      await hands.look('2-template')
      await hands.click(create.getByRole('button', { name: 'Create Agent' }))
      await expect(page.getByText('Agent created successfully')).toBeVisible()
      await expect(create).toBeHidden()

      // Back to the checklist, on to the channel.
      if (viewport.width < 768) await hands.click(page.getByRole('button', { name: 'Toggle sidebar' }))
      await hands.click(page.getByRole('link', { name: 'Dashboard' }))
      await expect(checklist).toContainText('Create your agent — Done')
      await hands.click(checklist.getByRole('link', { name: 'Connect a channel' }))
      await expect(page).toHaveURL('/channels')
      const bot = await registerBot('Padaria Lucia')
      await hands.click(page.getByRole('button', { name: 'Add Channel' }))
      await hands.click(page.getByRole('menuitem', { name: 'Telegram Bot' }))
      const connect = page.getByRole('dialog', { name: 'Connect Telegram Bot' })
      await hands.fill(connect.getByRole('textbox', { name: 'Bot Token', exact: true }), bot.token)
      await hands.look('3-connect')
      await hands.click(connect.getByRole('button', { name: 'Connect Bot' }))
      await expect(connect).toBeHidden()
      const card = channelCard(page, 'Padaria Lucia')
      await expect(card).toContainText('Not answering yet — choose an agent')
      await hands.look('4-channels')

      // Going live is choosing the agent: no switch of its own.
      await hands.click(card)
      const details = page.getByRole('dialog', { name: 'Channel Details' })
      await expect(details.getByText('Not checked yet')).toHaveCount(0)
      const agent = details.getByRole('textbox', { name: 'Select Agent' })
      await expect(agent).toBeEnabled()
      await hands.click(agent)
      await hands.click(page.getByRole('option', { name: /Restaurant Host/ }))
      await hands.click(details.getByRole('button', { name: 'Assign' }))
      await expect(details.getByRole('status')).toContainText('Agent assigned successfully')
      await expect(details.getByRole('status')).toContainText('The channel is now receiving messages')
      await hands.look('5-live')

      // The first customer writes, and is answered.
      const chatId = 500_000 + Math.floor(Math.random() * 400_000)
      await deliverText(bot.token, chatId, 'Do you have a table for four tonight?', chatId)
      await expect
        .poll(
          async () =>
            (await telegramCalls(bot.token))
              .filter((call) => call.method === 'sendMessage' && Number(call.params.chat_id) === chatId)
              .map((call) => String(call.params.text)),
          { timeout: 30_000 },
        )
        .toEqual(['Echo: Do you have a table for four tonight?'])
      expect(hands.count).toBe(budget)
      expect(hands.count).toBeLessThanOrEqual(15)

      await page.keyboard.press('Escape')
      await expect(card).toContainText('Answering with Restaurant Host')
      await page.goto('/')
      await expect(checklist).toHaveCount(0)
      await hands.look('6-dashboard')
      // The organization took the owner's time zone from the browser.
      await page.goto('/settings')
      await expect(page.getByRole('region', { name: 'Time zone' }).getByLabel('Time zone')).toHaveValue(
        'America/Sao_Paulo',
      )
    })
  })
}
