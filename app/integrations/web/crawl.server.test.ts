import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { crawlSite, isSameSite, normalizeUrl } from '~/integrations/web/crawl.server'
import { WebFetchError } from '~/integrations/web/safe-fetch.server'
import { startSiteFake, type SiteFake } from '../../../tests/fakes/site-server'

let site: SiteFake
beforeAll(async () => {
  site = await startSiteFake()
})
afterAll(() => site.close())

const options = { maxBytes: 1024 * 1024, timeoutMs: 2000, allowPrivateHosts: true, maxPages: 10 }

describe('crawlSite', () => {
  it('reads the site breadth-first, each page once, without external links or files', async () => {
    const before = [...site.requests]
    const result = await crawlSite(`${site.url}/`, options)
    const requested = site.requests.slice(before.length)

    expect(result.pages.map((p) => p.url)).toEqual([
      `${site.url}/`,
      `${site.url}/pages/one`,
      `${site.url}/pages/two`,
      `${site.url}/pages/three`,
    ])
    expect(result.pages[0].title).toBe('Returns and refunds')
    expect(result.pages[0].markdown).toContain('## Damaged items')
    expect(result.pages[1]).toEqual({
      url: `${site.url}/pages/one`,
      title: 'Page one',
      markdown: '# Page one\n\nThe first page is about shipping.',
    })
    // /pages/one is linked as /pages/one, /pages/one#top and /pages/one#again: fetched once.
    expect(requested.filter((path) => path === '/pages/one')).toHaveLength(1)
    expect(requested).not.toContain('/files/guide.pdf')
    expect(requested).toEqual(['/', '/pages/one', '/pages/two', '/pages/three', '/missing'])
    expect(result.failures).toEqual([
      { url: `${site.url}/missing`, reason: 'The page answered with an error: 404 Not Found.' },
    ])
  })

  it('stops at maxPages', async () => {
    const result = await crawlSite(`${site.url}/`, { ...options, maxPages: 2 })
    expect(result.pages).toHaveLength(2)
  })

  it('starts from the start page after its redirects', async () => {
    const result = await crawlSite(`${site.url}/redirect/start`, { ...options, maxPages: 1 })
    expect(result.pages.map((p) => p.url)).toEqual([`${site.url}/`])
  })

  it('throws when the start page fails', async () => {
    await expect(crawlSite(`${site.url}/missing`, options)).rejects.toBeInstanceOf(WebFetchError)
    await expect(crawlSite(`${site.url}/`, { ...options, allowPrivateHosts: false })).rejects.toMatchObject({
      code: 'blocked_address',
    })
  })

  it('collects a failing page and goes on; sees a changed page on the next crawl', async () => {
    site.setPage('/pages/two', {
      body: '<main><h1>Page two</h1><p>Now about gift cards.</p></main>',
      contentType: 'text/html',
    })
    site.setPage('/pages/one', { body: '<p>slow?</p>', contentType: 'image/gif' })
    try {
      const result = await crawlSite(`${site.url}/`, options)
      expect(result.pages.find((p) => p.url.endsWith('/pages/two'))?.markdown).toContain('gift cards')
      expect(result.failures.map((f) => f.url)).toEqual([`${site.url}/pages/one`, `${site.url}/missing`])
      expect(result.failures[0].reason).toBe('This address is not a web page (it is image/gif).')
    } finally {
      site.removePage('/pages/two')
      site.removePage('/pages/one')
    }
  })

  it('stops at the deadline', async () => {
    const slow = await startSiteFake({ slowMs: 1500 })
    try {
      slow.setPage('/', {
        body: '<main><p>Start.</p><a href="/slow">slow</a><a href="/pages/one">one</a></main>',
      })
      const started = Date.now()
      const result = await crawlSite(`${slow.url}/`, { ...options, deadlineMs: 400 })
      expect(Date.now() - started).toBeLessThan(1200)
      expect(result.pages.map((p) => p.url)).toEqual([`${slow.url}/`])
      expect(result.failures).toEqual([
        { url: `${slow.url}/slow`, reason: 'The page took too long to answer.' },
      ])
    } finally {
      await slow.close()
    }
  })
})

describe('site rules', () => {
  it('treats www. as the same site, not another scheme or host', () => {
    expect(isSameSite('https://www.shop.test/a', 'https://shop.test/b')).toBe(true)
    expect(isSameSite('http://shop.test/a', 'https://shop.test/a')).toBe(false)
    expect(isSameSite('https://blog.shop.test/', 'https://shop.test/')).toBe(false)
    expect(normalizeUrl('HTTPS://Shop.Test:443/a?b=1#c')).toBe('https://shop.test/a?b=1')
    expect(normalizeUrl('mailto:a@b.c')).toBeUndefined()
  })
})
