import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { text } from 'node:stream/consumers'

/**
 * A small local web site for the knowledge base's fetcher and crawler tests, on 127.0.0.1 (so callers pass
 * `allowPrivateHosts: true`, or test its refusal). Pages:
 *   /                   an article (title "Returns and refunds | Demo Shop") inside a header with nav, a cookie
 *                       banner, an aside and a footer; links to /pages/one, /pages/two, /pages/three (also with
 *                       fragments), an external site and /files/guide.pdf
 *   /pages/one|two|three  plain pages; three links to /missing and back to /pages/one#again
 *   /redirect/start     302 → /redirect/middle → 301 → /
 *   /redirect/loop      302 to itself, forever
 *   /redirect/private   302 to `privateRedirectTarget` (default http://127.0.0.1:1/)
 *   /big                a `bigBytes` (5 MB) HTML page, streamed
 *   /slow               answers after `slowMs` (3 s)
 *   /files/guide.pdf, /image.png   non-HTML content
 *   /plain.txt, /latin1 text/plain; an HTML page in ISO-8859-1
 *   anything else       404
 * `setPage(path, page)` replaces or adds a page (so a test can change a page between two fetches); with a fixed
 * `port` another process can do the same through POST /__fake/pages {path, body, contentType?, status?} and read
 * GET /__fake/requests. `requests` lists every path (with query) asked for, in order.
 */

export type FakePage = {
  body: string | Uint8Array
  contentType?: string
  status?: number
  headers?: Record<string, string>
}

export type SiteFake = {
  /** http://127.0.0.1:PORT (no trailing slash). */
  url: string
  port: number
  requests: string[]
  requestCount(path: string): number
  setPage(path: string, page: FakePage): void
  removePage(path: string): void
  close(): Promise<void>
}

export const ARTICLE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Returns and refunds | Demo Shop</title>
<style>body { font-family: sans-serif }</style></head>
<body>
<header class="site-header"><a href="/">Demo Shop</a>
  <nav><ul><li><a href="/pages/one#top">One</a></li><li><a href="/pages/two">Two</a></li></ul></nav>
</header>
<div id="cookie-banner" class="cookie-consent">We use cookies to improve your experience. <button>Accept all</button></div>
<main>
  <article>
    <h1>Returns and refunds</h1>
    <p>You can return any item within <strong>30 days</strong> of delivery. Read <a href="/pages/one">page one</a> first.</p>
    <h2>Damaged items</h2>
    <p>Send us a photo of the damage and your order number.</p>
    <ul><li>A clear photo</li><li>The order number</li></ul>
    <h3>Refund times</h3>
    <table><thead><tr><th>Method</th><th>Days</th></tr></thead><tbody><tr><td>Card</td><td>5</td></tr><tr><td>PayPal</td><td>2</td></tr></tbody></table>
    <p>More help: <a href="/pages/two">page two</a>, <a href="/pages/three#faq">page three</a>,
      <a href="https://external.example/about">our partner</a>, <a href="/files/guide.pdf">the guide (PDF)</a>.</p>
    <form action="/subscribe"><label>Email</label><input name="email"><button>Subscribe</button></form>
  </article>
  <aside><h2>Related products</h2><p>Gift cards</p></aside>
</main>
<footer><p>© Demo Shop. <a href="/pages/two#contact">Contact us</a></p></footer>
<script>document.title = 'changed'</script>
</body></html>`

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`

function defaultPages(): Map<string, FakePage> {
  const html = (body: string): FakePage => ({ body, contentType: 'text/html; charset=utf-8' })
  return new Map<string, FakePage>([
    ['/', html(ARTICLE_HTML)],
    ['/pages/one', html(page('Page one', '<p>The first page is about shipping.</p>'))],
    ['/pages/two', html(page('Page two', '<p>The second page is about payments.</p>'))],
    [
      '/pages/three',
      html(
        page(
          'Page three',
          '<p id="faq">The third page has questions.</p><a href="/missing">gone</a> <a href="/pages/one#again">one</a>',
        ),
      ),
    ],
    ['/files/guide.pdf', { body: '%PDF-1.4\n%%EOF\n', contentType: 'application/pdf' }],
    [
      '/image.png',
      { body: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), contentType: 'image/png' },
    ],
    ['/plain.txt', { body: 'Plain text page.\n', contentType: 'text/plain' }],
    [
      '/latin1',
      {
        body: Buffer.from(page('Caf\u00e9', '<p>Cr\u00e8me br\u00fbl\u00e9e.</p>'), 'latin1'),
        contentType: 'text/html; charset=iso-8859-1',
      },
    ],
  ])
}

export async function startSiteFake(
  options: { port?: number; slowMs?: number; bigBytes?: number; privateRedirectTarget?: string } = {},
): Promise<SiteFake> {
  const pages = defaultPages()
  const requests: string[] = []
  const timers = new Set<NodeJS.Timeout>()
  const slowMs = options.slowMs ?? 3000
  const bigBytes = options.bigBytes ?? 5 * 1024 * 1024
  const privateTarget = options.privateRedirectTarget ?? 'http://127.0.0.1:1/'

  const redirect = (res: ServerResponse, status: number, location: string) =>
    res.writeHead(status, { location, 'content-type': 'text/html' }).end(`<a href="${location}">moved</a>`)

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake')
    if (url.pathname === '/__fake/pages' && req.method === 'POST') {
      const body = JSON.parse(await text(req)) as { path: string } & FakePage
      pages.set(body.path, { body: body.body, contentType: body.contentType, status: body.status })
      return res.writeHead(204).end()
    }
    if (url.pathname === '/__fake/requests') {
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(requests))
    }
    requests.push(url.pathname + url.search)
    switch (url.pathname) {
      case '/redirect/start':
        return redirect(res, 302, '/redirect/middle')
      case '/redirect/middle':
        return redirect(res, 301, `http://${req.headers.host}/`)
      case '/redirect/loop':
        return redirect(res, 302, '/redirect/loop')
      case '/redirect/private':
        return redirect(res, 302, privateTarget)
      case '/big': {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        const chunk = `<p>${'filler text '.repeat(5000)}</p>\n`
        let sent = 0
        const pump = () => {
          while (sent < bigBytes) {
            sent += chunk.length
            if (!res.write(chunk)) return void res.once('drain', pump)
          }
          res.end()
        }
        res.on('close', () => (sent = bigBytes))
        return pump()
      }
      case '/slow': {
        const timer = setTimeout(() => {
          timers.delete(timer)
          res.writeHead(200, { 'content-type': 'text/html' }).end(page('Slow', '<p>Finally.</p>'))
        }, slowMs)
        timers.add(timer)
        return
      }
    }
    const found = pages.get(url.pathname)
    if (!found)
      return res.writeHead(404, { 'content-type': 'text/html' }).end(page('Not found', '<p>No.</p>'))
    res
      .writeHead(found.status ?? 200, { 'content-type': found.contentType ?? 'text/html', ...found.headers })
      .end(found.body)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end())
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    requestCount: (path) => requests.filter((r) => r === path).length,
    setPage: (path, next) => pages.set(path, next),
    removePage: (path) => pages.delete(path),
    close: async () => {
      for (const timer of timers) clearTimeout(timer)
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
