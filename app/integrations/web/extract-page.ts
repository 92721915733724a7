import { elementToMarkdown, parseHtmlDocument } from '~/integrations/web/html-to-markdown'

/**
 * The readable content of a fetched HTML page as Markdown (headings kept as `#`, so passages get heading paths),
 * with its title and the page's links. Hand-written rather than Readability: its scoring drops short FAQ-like
 * sections, lists of links and tables that a shop's help pages are made of, while pages that have a `<main>` or
 * an `<article>` say where their content is. The rules, in order:
 *   1. Links are taken from the whole page (navigation included: that is how a crawler finds the other pages),
 *      resolved against `<base href>` and the page URL, http(s) only, without fragments, each once.
 *   2. Noise is removed: scripts, styles, forms, frames, nav, aside, dialogs, hidden elements, ARIA navigation /
 *      banner / contentinfo / complementary / search regions, cookie and consent banners (by id or class), and
 *      the page's own header and footer (a header or footer inside an article or main stays).
 *   3. The content is the largest `<main>` (or role=main), else the only `<article>`, else the body.
 * The HTML is only parsed and read as text; nothing in it is rendered, fetched or run.
 */

const NOISE_SELECTOR = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'frame',
  'object',
  'embed',
  'form',
  'nav',
  'aside',
  'dialog',
  'svg',
  '[hidden]',
  '[aria-hidden="true"]',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[role="complementary"]',
  '[role="search"]',
  '[role="dialog"]',
  '[role="alertdialog"]',
].join(',')
const COOKIE_BANNER = /(^|[\s_-])(cookies?|consent|gdpr|cookie-?banner|cc-window|onetrust|cmp)([\s_-]|$)/i
const HIDDEN_STYLE = /(display\s*:\s*none|visibility\s*:\s*hidden)/i
/** A "cookie" element longer than this is content (a cookie policy page), not a banner. */
const BANNER_MAX_CHARS = 1500

export type ExtractedPage = { title: string; markdown: string; links: string[] }

export function extractMainContent(html: string, pageUrl: string): ExtractedPage {
  const document = parseHtmlDocument(html)
  const links = collectLinks(document, pageUrl)
  const title = pageTitle(document, pageUrl)
  removeNoise(document)
  const root = contentRoot(document)
  return { title, markdown: root ? elementToMarkdown(root) : '', links }
}

function collapse(text: string | null | undefined) {
  return (text ?? '').replace(/\s+/g, ' ').trim()
}

function collectLinks(document: Document, pageUrl: string): string[] {
  let base: URL
  try {
    base = new URL(pageUrl)
    const declared = document.querySelector('base[href]')?.getAttribute('href')
    if (declared) base = new URL(declared, base)
  } catch {
    return []
  }
  const seen = new Set<string>()
  for (const anchor of Array.from(document.querySelectorAll('a[href], area[href]'))) {
    const href = anchor.getAttribute('href')?.trim()
    if (!href || href.startsWith('#')) continue
    try {
      const url = new URL(href, base)
      if (url.protocol !== 'http:' && url.protocol !== 'https:') continue
      url.hash = ''
      seen.add(url.href)
    } catch {
      // Not a URL: skip it.
    }
  }
  return [...seen]
}

/**
 * `<title>`, or the page's `<h1>` when the title merely adds the site's name to it ("Returns | Shop"); without a
 * title, og:title, then the first heading, then the URL.
 */
function pageTitle(document: Document, pageUrl: string) {
  const title = collapse(document.querySelector('title')?.textContent)
  const ogTitle = collapse(document.querySelector('meta[property="og:title"]')?.getAttribute('content'))
  const h1 = collapse(document.querySelector('h1')?.textContent)
  if (h1 && title && title !== h1 && title.toLowerCase().includes(h1.toLowerCase())) return h1
  const heading = h1 || collapse(document.querySelector('h2, h3, h4, h5, h6')?.textContent)
  return title || ogTitle || heading || pageUrl
}

function removeNoise(document: Document) {
  for (const element of Array.from(document.querySelectorAll(NOISE_SELECTOR))) element.remove()
  for (const element of Array.from(document.querySelectorAll('header, footer'))) {
    if (!element.closest('article, main, [role="main"]')) element.remove()
  }
  for (const element of Array.from(document.querySelectorAll('[id], [class], [style]'))) {
    if (!element.isConnected) continue
    const tag = element.localName.toLowerCase()
    if (tag === 'body' || tag === 'html' || tag === 'main' || tag === 'article') continue
    if (HIDDEN_STYLE.test(element.getAttribute('style') ?? '')) {
      element.remove()
      continue
    }
    const names = `${element.getAttribute('id') ?? ''} ${element.getAttribute('class') ?? ''}`
    if (COOKIE_BANNER.test(names) && (element.textContent ?? '').length <= BANNER_MAX_CHARS) element.remove()
  }
}

function contentRoot(document: Document): Element | null {
  const mains = Array.from(document.querySelectorAll('main, [role="main"]'))
  if (mains.length > 0) {
    return mains.reduce((best, next) =>
      (next.textContent ?? '').length > (best.textContent ?? '').length ? next : best,
    )
  }
  const articles = document.querySelectorAll('article')
  if (articles.length === 1) return articles[0]
  return document.body ?? document.documentElement
}
