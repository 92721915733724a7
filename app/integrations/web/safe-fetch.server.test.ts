import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  WebFetchError,
  fetchPublicPage,
  type SafeFetchOptions,
  type WebFetchErrorCode,
} from '~/integrations/web/safe-fetch.server'
import { startSiteFake, type SiteFake } from '../../../tests/fakes/site-server'

let site: SiteFake
beforeAll(async () => {
  site = await startSiteFake({ slowMs: 3000 })
})
afterAll(() => site.close())

const allowed: SafeFetchOptions = { maxBytes: 1024 * 1024, timeoutMs: 2000, allowPrivateHosts: true }

async function failure(url: string, options: SafeFetchOptions, code: WebFetchErrorCode) {
  const error = await fetchPublicPage(url, options).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(WebFetchError)
  expect((error as WebFetchError).code).toBe(code)
  return error as WebFetchError
}

/** A resolver for test names: `name → address`; anything else is not found. */
function lookupOf(table: Record<string, string>) {
  return vi.fn(async (hostname: string) => {
    const address = table[hostname]
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return [{ address, family: address.includes(':') ? (6 as const) : (4 as const) }]
  })
}

describe('fetchPublicPage', () => {
  it('fetches a page', async () => {
    const page = await fetchPublicPage(`${site.url}/`, allowed)
    expect(page).toMatchObject({
      url: `${site.url}/`,
      status: 200,
      contentType: 'text/html',
      truncated: false,
    })
    expect(page.body).toContain('<h1>Returns and refunds</h1>')
  })

  it('follows redirects (302 then 301) and reports the final URL', async () => {
    const page = await fetchPublicPage(`${site.url}/redirect/start#frag`, allowed)
    expect(page.url).toBe(`${site.url}/`)
    expect(page.body).toContain('Returns and refunds')
  })

  it('stops after maxRedirects', async () => {
    const before = site.requestCount('/redirect/loop')
    await failure(`${site.url}/redirect/loop`, { ...allowed, maxRedirects: 3 }, 'too_many_redirects')
    expect(site.requestCount('/redirect/loop') - before).toBe(4)
  })

  it('connects to the address it checked, with the Host header of the name', async () => {
    const lookup = lookupOf({ 'shop.test': '127.0.0.1' })
    const page = await fetchPublicPage(`http://shop.test:${site.port}/pages/one`, { ...allowed, lookup })
    expect(page.body).toContain('Page one')
    // Resolved once, by us: the connection uses that answer, not a second lookup (DNS rebinding).
    expect(lookup).toHaveBeenCalledTimes(1)
    expect(lookup).toHaveBeenCalledWith('shop.test')
  })

  it('decompresses a gzip body and still stops at maxBytes of decoded text', async () => {
    const html = `<p>${'compressible '.repeat(100_000)}</p>`
    site.setPage('/gz', {
      body: gzipSync(html),
      contentType: 'text/html',
      headers: { 'content-encoding': 'gzip' },
    })
    try {
      const whole = await fetchPublicPage(`${site.url}/gz`, { ...allowed, maxBytes: 2_000_000 })
      expect(whole).toMatchObject({ body: html, truncated: false })
      const cut = await fetchPublicPage(`${site.url}/gz`, { ...allowed, maxBytes: 10_000 })
      expect(cut.truncated).toBe(true)
      expect(cut.body).toHaveLength(10_000)
    } finally {
      site.removePage('/gz')
    }
  })

  it('refuses loopback, private, link-local (metadata) and mapped addresses without the allowance', async () => {
    const strict = { maxBytes: 1024, timeoutMs: 2000 }
    const before = site.requests.length
    await failure(`${site.url}/`, strict, 'blocked_address')
    await failure(`http://localhost:${site.port}/`, strict, 'blocked_address')
    await failure(`http://[::1]:${site.port}/`, strict, 'blocked_address')
    await failure(`http://2130706433:${site.port}/`, strict, 'blocked_address')
    await failure('http://169.254.169.254/latest/meta-data/', strict, 'blocked_address')
    const lookup = lookupOf({
      'intranet.test': '10.0.0.1',
      'metadata.test': '169.254.169.254',
      'mapped.test': '::ffff:127.0.0.1',
      'ula.test': 'fd00::1',
    })
    for (const host of ['intranet.test', 'metadata.test', 'mapped.test', 'ula.test']) {
      const error = await failure(`http://${host}:${site.port}/`, { ...strict, lookup }, 'blocked_address')
      expect(error.message).toBe('This address points to a private or local network, which we do not fetch.')
    }
    expect(site.requests.length).toBe(before)
  })

  it('refuses a name when any of its addresses is private', async () => {
    const lookup = vi.fn(async () => [
      { address: '93.184.216.34', family: 4 as const },
      { address: '127.0.0.1', family: 4 as const },
    ])
    await failure('http://mixed.test/', { maxBytes: 1024, timeoutMs: 2000, lookup }, 'blocked_address')
  })

  it('refuses a redirect hop to a private address', async () => {
    // Only public.test may be private (it is the fake); the redirect to 127.0.0.1 is checked on its own.
    const lookup = lookupOf({ 'public.test': '127.0.0.1' })
    const narrowed = { maxBytes: 1024, timeoutMs: 2000, lookup, allowPrivateHosts: ['public.test'] }
    const page = await fetchPublicPage(`http://public.test:${site.port}/pages/two`, narrowed)
    expect(page.body).toContain('Page two')
    await failure(`http://public.test:${site.port}/redirect/private`, narrowed, 'blocked_address')

    const viaName = await startSiteFake({ privateRedirectTarget: 'http://metadata.test/latest/meta-data/' })
    try {
      const lookup2 = lookupOf({ 'public.test': '127.0.0.1', 'metadata.test': '169.254.169.254' })
      await failure(
        `http://public.test:${viaName.port}/redirect/private`,
        { ...narrowed, lookup: lookup2 },
        'blocked_address',
      )
      expect(lookup2).toHaveBeenCalledWith('metadata.test')
    } finally {
      await viaName.close()
    }
  })

  it('cuts a 5 MB page at maxBytes', async () => {
    const page = await fetchPublicPage(`${site.url}/big`, { ...allowed, maxBytes: 100_000 })
    expect(page.truncated).toBe(true)
    expect(Buffer.byteLength(page.body)).toBe(100_000)
  })

  it('gives up at the time limit', async () => {
    const started = Date.now()
    const error = await failure(`${site.url}/slow`, { ...allowed, timeoutMs: 300 }, 'timeout')
    expect(Date.now() - started).toBeLessThan(2000)
    expect(error.message).toBe('The page took too long to answer.')
  })

  it('refuses non-HTML content, HTTP errors and bad URLs', async () => {
    await failure(`${site.url}/image.png`, allowed, 'not_html')
    await failure(`${site.url}/files/guide.pdf`, allowed, 'not_html')
    const notFound = await failure(`${site.url}/missing`, allowed, 'http_error')
    expect(notFound.status).toBe(404)
    expect(notFound.message).toBe('The page answered with an error: 404 Not Found.')
    await failure('ftp://example.com/file', allowed, 'bad_url')
    await failure('file:///etc/passwd', allowed, 'bad_url')
    await failure('http://user:pass@example.com/', allowed, 'bad_url')
    await failure('not a url', allowed, 'bad_url')
    await failure('http://nowhere.test/', { ...allowed, lookup: lookupOf({}) }, 'network')
  })

  it('accepts plain text and decodes a declared latin1 charset', async () => {
    expect((await fetchPublicPage(`${site.url}/plain.txt`, allowed)).contentType).toBe('text/plain')
    expect((await fetchPublicPage(`${site.url}/latin1`, allowed)).body).toContain('Crème brûlée.')
  })

  it('refuses the private-host allowance in production', async () => {
    vi.stubEnv('NODE_ENV', 'production')
    try {
      await expect(fetchPublicPage(`${site.url}/`, allowed)).rejects.toThrow(/tests only/)
    } finally {
      vi.unstubAllEnvs()
    }
  })
})
