import { createHash } from 'node:crypto'
import { extractMainContent } from '~/integrations/web/extract-page'
import { fetchPublicPage, WebFetchError, type SafeFetchOptions } from '~/integrations/web/safe-fetch.server'

/**
 * Reads a small site breadth-first from a start page, through fetchPublicPage (so every page and every redirect
 * hop gets the same address checks). The site is the start page's final URL (after its redirects, so
 * http://shop.com → https://www.shop.com crawls the latter): same scheme and host, a leading `www.` ignored.
 * URLs are normalised (no fragment, no default port) and fetched once each; links to files by extension (.pdf,
 * images, archives, media…) are skipped; a page whose content equals an earlier page's is not kept twice.
 * One page at a time, politely. It stops at `maxPages` (at most MAX_CRAWL_PAGES) or at the deadline; a page that
 * fails is listed in `failures` with a readable reason, except the start page, whose WebFetchError is thrown.
 */

export const MAX_CRAWL_PAGES = 50
export const DEFAULT_CRAWL_DEADLINE_MS = 120_000

export type CrawlOptions = SafeFetchOptions & { maxPages: number; sameSiteOnly?: true; deadlineMs?: number }
export type CrawledPage = { url: string; title: string; markdown: string }
export type CrawlResult = { pages: CrawledPage[]; failures: Array<{ url: string; reason: string }> }

const SKIPPED_EXTENSIONS = new Set(
  (
    'pdf doc docx xls xlsx ppt pptx odt ods odp rtf csv zip gz tgz bz2 xz 7z rar tar dmg exe msi apk iso bin ' +
    'jpg jpeg png gif webp svg bmp ico tif tiff avif heic mp3 wav ogg m4a flac mp4 m4v mov avi mkv webm wmv ' +
    'css js mjs json xml rss atom woff woff2 ttf otf eot'
  ).split(' '),
)

/** The URL without its fragment and default port; undefined when it is not http(s). */
export function normalizeUrl(text: string, base?: string): string | undefined {
  try {
    const url = new URL(text, base)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
    url.hash = ''
    return url.href
  } catch {
    return undefined
  }
}

function siteKey(url: URL) {
  return `${url.protocol}//${url.host.toLowerCase().replace(/^www\./, '')}`
}

/** Same scheme and host, with or without a leading `www.`. */
export function isSameSite(a: string, b: string): boolean {
  try {
    return siteKey(new URL(a)) === siteKey(new URL(b))
  } catch {
    return false
  }
}

function isSkippedByExtension(href: string) {
  const path = new URL(href).pathname
  const match = /\.([a-z0-9]{1,5})$/i.exec(path)
  return match ? SKIPPED_EXTENSIONS.has(match[1].toLowerCase()) : false
}

export async function crawlSite(startUrl: string, options: CrawlOptions): Promise<CrawlResult> {
  const { maxPages, deadlineMs = DEFAULT_CRAWL_DEADLINE_MS, ...fetchOptions } = options
  const limit = Math.max(1, Math.min(Math.floor(maxPages), MAX_CRAWL_PAGES))
  const deadline = Date.now() + deadlineMs
  const start = normalizeUrl(startUrl)
  if (!start)
    throw new WebFetchError(
      'bad_url',
      'This is not a web page address: it must start with http:// or https://.',
    )

  const pages: CrawledPage[] = []
  const failures: CrawlResult['failures'] = []
  const seen = new Set<string>([start])
  const contents = new Set<string>()
  const queue: string[] = [start]
  let site = start

  while (queue.length > 0 && pages.length < limit) {
    const remaining = deadline - Date.now()
    if (remaining <= 0) break
    const url = queue.shift() ?? ''
    const isStart = url === start
    let page
    try {
      const fetched = await fetchPublicPage(url, {
        ...fetchOptions,
        timeoutMs: Math.min(options.timeoutMs, remaining),
      })
      if (isStart) site = fetched.url
      else if (!isSameSite(fetched.url, site)) {
        failures.push({ url, reason: 'The page redirected to another site.' })
        continue
      }
      seen.add(normalizeUrl(fetched.url) ?? fetched.url)
      page = fetched.contentType.includes('html')
        ? extractMainContent(fetched.body, fetched.url)
        : { title: fetched.url, markdown: fetched.body, links: [] }
      page = { ...page, url: fetched.url }
    } catch (error) {
      if (isStart) throw error
      failures.push({
        url,
        reason: error instanceof WebFetchError ? error.message : 'The page could not be read.',
      })
      continue
    }

    const digest = createHash('sha256').update(page.markdown).digest('hex')
    if (page.markdown.trim() && !contents.has(digest)) {
      contents.add(digest)
      pages.push({ url: page.url, title: page.title, markdown: page.markdown })
    }
    for (const link of page.links) {
      const next = normalizeUrl(link)
      if (!next || seen.has(next) || !isSameSite(next, site) || isSkippedByExtension(next)) continue
      seen.add(next)
      queue.push(next)
    }
  }
  return { pages, failures }
}
