import { randomUUID } from 'node:crypto'
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test'

export { expect }

declare global {
  interface Window {
    __reportCspViolation?: (text: string) => Promise<void>
  }
}

const cspViolationsByContext = new WeakMap<BrowserContext, string[]>()

/**
 * The `test` of every spec (docs/decisions/031): it fails when a page, frame or popup of the test reports a
 * Content-Security-Policy violation, so that each spec shows the app working under its policy. The browser tells
 * twice (a `securitypolicyviolation` event and a console message); either is enough.
 */
export const test = base.extend({
  context: async ({ context }, provide) => {
    const violations: string[] = []
    cspViolationsByContext.set(context, violations)
    context.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) violations.push(message.text())
    })
    await context.exposeBinding('__reportCspViolation', (_source, text: string) => {
      violations.push(text)
    })
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        void window.__reportCspViolation?.(
          `securitypolicyviolation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} in ${event.documentURI}`,
        )
      })
    })
    await provide(context)
    expect(violations, 'Content-Security-Policy violations').toEqual([])
  },
})

/** The violations the page's context has seen so far: a test that provokes some on purpose empties it. */
export function cspViolations(page: Page): string[] {
  const violations = cspViolationsByContext.get(page.context())
  if (!violations) throw new Error('cspViolations needs the test from tests/e2e/helpers.ts')
  return violations
}

const EMULATOR = process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099'
export const PASSWORD = 'Secret123'

export function uniqueEmail(prefix = 'e2e') {
  return `${prefix}-${randomUUID().slice(0, 12)}@example.com`
}

/**
 * An account of the Auth emulator. Its address is confirmed, as its owner would have by opening Firebase's link
 * (invitations by email wait for that, issue 31), unless `emailConfirmed: false`.
 */
export async function createAccount(displayName = 'Test User', { emailConfirmed = true } = {}) {
  const email = uniqueEmail()
  const response = await fetch(
    `http://${EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD, displayName, returnSecureToken: true }),
    },
  )
  expect(response.ok).toBe(true)
  const body: { idToken: string; localId: string } = await response.json()
  if (emailConfirmed) {
    // The emulator's admin access ("Bearer owner") stands for the person opening the link.
    const confirmed = await fetch(
      `http://${EMULATOR}/identitytoolkit.googleapis.com/v1/projects/demo-replypilot/accounts:update`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
        body: JSON.stringify({ localId: body.localId, emailVerified: true }),
      },
    )
    expect(confirmed.ok).toBe(true)
  }
  return { email, password: PASSWORD, displayName, idToken: body.idToken, uid: body.localId }
}
export type Account = Awaited<ReturnType<typeof createAccount>>

export async function signIn(page: Page, email: string, password = PASSWORD, path = '/login') {
  await page.goto(path)
  const form = page.getByRole('form', { name: 'Sign in' })
  await form.getByLabel('Email').fill(email)
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(password)
  await form.getByRole('button', { name: 'Sign In' }).click()
}

export async function signUp(
  page: Page,
  { name, email, password }: { name: string; email: string; password: string },
) {
  await page.goto('/login?mode=signup')
  const form = page.getByRole('form', { name: 'Sign up' })
  await form.getByLabel('Full Name').fill(name)
  await form.getByLabel('Email').fill(email)
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(password)
  await form.getByLabel('Confirm Password').fill(password)
  await form.getByRole('button', { name: 'Create Account' }).click()
}

/** A new user meets the Create Organization dialog; tests about other things close it. */
export async function dismissCreateOrganization(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Create Organization' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
}

export async function createInDialog(page: Page, name: string) {
  const dialog = page.getByRole('dialog', { name: 'Create Organization' })
  await expect(dialog).toBeVisible()
  await dialog.getByPlaceholder('My Company').fill(name)
  await dialog.getByRole('button', { name: 'Create Organization' }).click()
  await expect(dialog).toBeHidden()
}
