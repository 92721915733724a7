import { parseHTML } from 'linkedom'

/**
 * HTML to the small Markdown dialect the passage splitter reads: `#` headings, paragraphs, `- ` list items (nested
 * ones indented), fenced code, and tables with a header row as Markdown tables (rows without a header as list
 * items). Inline markup keeps only its text: links lose their address, images and media go, emphasis goes.
 * The HTML is parsed by linkedom and only ever read as text: nothing is rendered, fetched or run.
 * Also used for Word documents (mammoth's HTML), which is why it is its own module.
 */

const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'canvas',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'img',
  'picture',
  'video',
  'audio',
  'source',
  'track',
  'map',
  'input',
  'select',
  'textarea',
  'button',
  'option',
  'head',
  'title',
  'meta',
  'link',
  'base',
])
const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 }
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hgroup',
  'html',
  'legend',
  'main',
  'nav',
  'p',
  'section',
  'summary',
])

const LINE_BREAK = '\u2028'
const ELEMENT_NODE = 1
const TEXT_NODE = 3

/**
 * linkedom builds the tree as written and does not add the `<html>`/`<body>` an HTML5 parser would: a page or a
 * fragment without them is given a shell first, so that `document.body` is the content.
 */
export function parseHtmlDocument(html: string): Document {
  return parseHTML(withShell(html)).document
}

function withShell(html: string) {
  if (/<body[\s>]/i.test(html)) return /<html[\s>]/i.test(html) ? html : `<html>${html}</html>`
  const head = /<head[\s>][\s\S]*?<\/head>/i.exec(html)
  const rest = (head ? html.slice(0, head.index) + html.slice(head.index + head[0].length) : html)
    .replace(/<!doctype[^>]*>/i, '')
    .replace(/<\/?html(?:\s[^>]*)?>/gi, '')
  return `<!doctype html><html>${head?.[0] ?? '<head></head>'}<body>${rest}</body></html>`
}

export function htmlToMarkdown(html: string): string {
  const document = parseHtmlDocument(html)
  return elementToMarkdown(document.body ?? document.documentElement)
}

export function elementToMarkdown(root: Element): string {
  const blocks: string[] = []
  renderBlock(root, blocks, '')
  return blocks
    .map((block) => block.replace(/[ \t]+$/gm, ''))
    .filter((block) => block.trim() !== '')
    .join('\n\n')
}

function collapse(text: string) {
  return text.replace(/[\s\u00a0]+/g, ' ')
}

/** Escapes what would read as Markdown block syntax at the start of a text line. */
function escapeLineStart(text: string) {
  return text.replace(
    /^(\s*)([#>|]|[-+*](?=\s)|\d{1,9}[.)](?=\s)|`{3,}|~{3,})/,
    (_, space: string, marker: string) =>
      /^\d/.test(marker) ? `${space}${marker.replace(/([.)])$/, '\\$1')}` : `${space}\\${marker}`,
  )
}

function isElement(node: Node): node is Element {
  return node.nodeType === ELEMENT_NODE
}

function tagOf(node: Element) {
  return node.localName.toLowerCase()
}

function inlineText(node: Node): string {
  // Newlines in HTML source are only spaces; a `<br>` is a line break, marked apart until the lines are made.
  if (node.nodeType === TEXT_NODE) return (node.textContent ?? '').replace(/[\n\u2028]/g, ' ')
  if (!isElement(node)) return ''
  const tag = tagOf(node)
  if (SKIPPED.has(tag)) return ''
  if (tag === 'br') return LINE_BREAK
  let out = ''
  for (const child of Array.from(node.childNodes)) out += inlineText(child)
  return BLOCKS.has(tag) || HEADINGS[tag] || tag === 'li' || tag === 'tr' ? ` ${out} ` : out
}

/** Inline content as one or more text lines (a `<br>` keeps its line break). */
function inlineLines(nodes: Node[]): string {
  const text = nodes.map(inlineText).join('')
  return text
    .split(LINE_BREAK)
    .map((line) => collapse(line).trim())
    .filter(Boolean)
    .map(escapeLineStart)
    .join('\n')
}

function renderBlock(node: Element, blocks: string[], indent: string) {
  let inline: Node[] = []
  const flush = () => {
    const text = inlineLines(inline)
    if (text) blocks.push(text)
    inline = []
  }
  for (const child of Array.from(node.childNodes)) {
    if (!isElement(child)) {
      if (child.nodeType === TEXT_NODE) inline.push(child)
      continue
    }
    const tag = tagOf(child)
    if (SKIPPED.has(tag)) continue
    const level = HEADINGS[tag]
    if (level) {
      flush()
      const text = collapse(inlineText(child)).trim()
      if (text) blocks.push(`${'#'.repeat(level)} ${text}`)
    } else if (tag === 'ul' || tag === 'ol' || tag === 'menu') {
      flush()
      const lines: string[] = []
      renderList(child, lines, indent)
      if (lines.length > 0) blocks.push(lines.join('\n'))
    } else if (tag === 'table') {
      flush()
      const table = renderTable(child)
      if (table) blocks.push(table)
    } else if (tag === 'pre') {
      flush()
      const code = (child.textContent ?? '').replace(/^\n+|\s+$/g, '')
      if (code.trim()) blocks.push(`\`\`\`\n${code.replace(/^(`{3,}|~{3,})/gm, ' $1')}\n\`\`\``)
    } else if (tag === 'hr') {
      flush()
    } else if (BLOCKS.has(tag) || tag === 'li' || tag === 'dl') {
      flush()
      renderBlock(child, blocks, indent)
    } else {
      inline.push(child)
    }
  }
  flush()
}

function renderList(list: Element, lines: string[], indent: string) {
  for (const item of Array.from(list.children)) {
    if (tagOf(item) !== 'li') {
      if (tagOf(item) === 'ul' || tagOf(item) === 'ol') renderList(item, lines, `${indent}  `)
      continue
    }
    const own: Node[] = []
    const nested: Element[] = []
    for (const child of Array.from(item.childNodes)) {
      if (isElement(child) && (tagOf(child) === 'ul' || tagOf(child) === 'ol')) nested.push(child)
      else own.push(child)
    }
    const text = inlineLines(own).replace(/\n/g, ' ')
    if (text) lines.push(`${indent}- ${text}`)
    for (const sub of nested) renderList(sub, lines, `${indent}  `)
  }
}

function cellText(cell: Element) {
  return collapse(inlineText(cell)).trim().replace(/\|/g, '\\|')
}

function renderTable(table: Element): string {
  const rows: Element[] = []
  const collect = (node: Element) => {
    for (const child of Array.from(node.children)) {
      const tag = tagOf(child)
      if (tag === 'tr') rows.push(child)
      else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') collect(child)
    }
  }
  collect(table)
  const cells = rows
    .map((row) => Array.from(row.children).filter((cell) => tagOf(cell) === 'td' || tagOf(cell) === 'th'))
    .filter((row) => row.length > 0)
  if (cells.length === 0) return ''
  const headed = cells[0].every((cell) => tagOf(cell) === 'th') && cells.length > 1
  const texts = cells.map((row) => row.map(cellText))
  if (!headed) {
    return texts
      .map((row) => row.filter(Boolean).join('; '))
      .filter(Boolean)
      .map((line) => `- ${line}`)
      .join('\n')
  }
  const [header, ...body] = texts
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...body.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n')
}
