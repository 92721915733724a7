import { cspViolations, expect, test } from './helpers'

/** The header's value as directive -> sources. */
function parsePolicy(header: string | undefined): Record<string, string[]> {
  expect(header, 'Content-Security-Policy header').toBeTruthy()
  return Object.fromEntries(
    (header ?? '').split(';').map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/)
      return [name, sources]
    }),
  )
}

test('a page carries a nonce-based policy, and every script and style on it has that nonce', async ({
  page,
}) => {
  const response = await page.goto('/login')
  const policy = parsePolicy(response?.headers()['content-security-policy'])
  const nonceSource = policy['script-src'].find((source) => source.startsWith("'nonce-"))
  const nonce = nonceSource?.slice("'nonce-".length, -1)
  expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
  expect(policy['script-src']).toContain("'strict-dynamic'")
  expect(policy['script-src']).not.toContain("'unsafe-inline'")
  expect(policy['style-src']).toContain(`'nonce-${nonce}'`)
  expect(policy['frame-ancestors']).toEqual(["'none'"])
  expect(policy['object-src']).toEqual(["'none'"])
  expect(policy['base-uri']).toEqual(["'self'"])
  expect(response?.headers()['x-content-type-options']).toBe('nosniff')
  expect(response?.headers()['referrer-policy']).toBe('strict-origin-when-cross-origin')

  // The browser hides nonce attributes (they read ""), but keeps the value in the elements' nonce property.
  const elements = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLScriptElement | HTMLStyleElement>('script, style')].map((element) => ({
      tag: element.tagName,
      nonce: element.nonce,
      attribute: element.getAttribute('nonce'),
    })),
  )
  expect(elements.filter((element) => element.tag === 'SCRIPT').length).toBeGreaterThanOrEqual(3)
  expect(elements.filter((element) => element.tag === 'STYLE').length).toBeGreaterThanOrEqual(1)
  for (const element of elements) expect(element).toEqual({ tag: element.tag, nonce, attribute: '' })

  const again = await page.goto('/login')
  const nextNonce = parsePolicy(again?.headers()['content-security-policy'])['script-src'].find((source) =>
    source.startsWith("'nonce-"),
  )
  expect(nextNonce).not.toBe(nonceSource)
})

test('what is not a page gets a policy that allows nothing', async ({ request }) => {
  for (const path of ['/healthz', '/favicon.svg', '/api/v1/organizations']) {
    const response = await request.get(path)
    expect(response.headers()['content-security-policy'], path).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    )
  }
})

test('injected markup cannot run script', async ({ page }) => {
  await page.goto('/login')
  await page.evaluate(() => {
    document.body.insertAdjacentHTML(
      'beforeend',
      '<img src="/missing-image.png" alt="" onerror="document.title = \'injected\'">',
    )
  })
  await expect.poll(() => cspViolations(page).some((text) => text.includes('script-src-attr'))).toBe(true)
  expect(await page.title()).not.toBe('injected')
  // Provoked on purpose: the fixture would otherwise fail the test for it.
  cspViolations(page).splice(0)
})
