import { describe, expect, it } from 'vitest'
import { extractMainContent } from '~/integrations/web/extract-page'
import { htmlToMarkdown } from '~/integrations/web/html-to-markdown'
import { ARTICLE_HTML } from '../../../tests/fakes/site-server'

describe('extractMainContent', () => {
  const page = extractMainContent(ARTICLE_HTML, 'http://shop.test/help/returns?x=1#top')

  it('keeps the article with its headings, lists and table, and drops the page around it', () => {
    expect(page.title).toBe('Returns and refunds')
    expect(page.markdown).toBe(
      [
        '# Returns and refunds',
        'You can return any item within 30 days of delivery. Read page one first.',
        '## Damaged items',
        'Send us a photo of the damage and your order number.',
        '- A clear photo\n- The order number',
        '### Refund times',
        '| Method | Days |\n| --- | --- |\n| Card | 5 |\n| PayPal | 2 |',
        'More help: page two, page three, our partner, the guide (PDF).',
      ].join('\n\n'),
    )
    for (const noise of [
      'Demo Shop',
      'cookies',
      'Accept all',
      'Related products',
      'Contact us',
      'Subscribe',
      'changed',
    ]) {
      expect(page.markdown).not.toContain(noise)
    }
  })

  it('lists every link of the page, absolute, without fragments, once each', () => {
    expect(page.links).toEqual([
      'http://shop.test/',
      'http://shop.test/pages/one',
      'http://shop.test/pages/two',
      'http://shop.test/pages/three',
      'https://external.example/about',
      'http://shop.test/files/guide.pdf',
    ])
  })

  it('falls back to the only article, then the body; drops hidden parts; honours <base>', () => {
    const html = `<html><head><base href="https://cdn.test/docs/"></head><body>
      <div class="navbar">Top</div>
      <article><h2>Only article</h2><p>Body text.</p><div style="display: none">secret</div>
        <div class="gdpr-consent">Allow tracking?</div><a href="guide">guide</a> <a href="mailto:a@b.c">mail</a>
        <a href="javascript:alert(1)">x</a></article>
      <p>Outside.</p></body></html>`
    const result = extractMainContent(html, 'https://site.test/a')
    expect(result.markdown).toBe('## Only article\n\nBody text.\n\nguide mail x')
    expect(result.links).toEqual(['https://cdn.test/docs/guide'])
    expect(result.title).toBe('Only article')

    const body = extractMainContent('<p>One</p><p>Two <b>bold</b><br>next line</p>', 'https://site.test/')
    expect(body).toEqual({ title: 'https://site.test/', markdown: 'One\n\nTwo bold\nnext line', links: [] })
  })

  it('writes Markdown that reads as text: nested lists, code, escaped line starts, tables without header', () => {
    const markdown = htmlToMarkdown(
      '<ul><li>Top<ul><li>Inner</li></ul></li></ul><pre>line 1\n  line 2</pre>' +
        '<p># not a heading</p><table><tr><td>a</td><td>b</td></tr></table><img src="x.png" alt="logo">',
    )
    expect(markdown).toBe('- Top\n  - Inner\n\n```\nline 1\n  line 2\n```\n\n\\# not a heading\n\n- a; b')
  })
})
