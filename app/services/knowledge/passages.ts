/**
 * Splits a knowledge source's text into passages for full-text retrieval. Pure and deterministic: the same input
 * always gives the same passages, so re-processing an unchanged source changes nothing.
 *
 * Markdown: ATX (`#`..`######`) and setext headings start a section and form its heading path; each section is cut
 * on paragraph boundaries, then sentences, then (for a run-on text) between words, into passages of about
 * PASSAGE_TARGET_WORDS..PASSAGE_SOFT_MAX_WORDS words and never more than PASSAGE_HARD_MAX_WORDS. A short section
 * stays a passage of its own: a focused 20-word FAQ answer retrieves better than one merged with its neighbours.
 * Markdown noise is removed (links keep their text, images go, emphasis markers go, fences go but code stays,
 * table rows become "Header: cell; Header: cell" lines). Headings are not repeated in the text: they are the
 * passage's `headingPath`, and the source title is not part of it (the caller adds it).
 *
 * Plain text has no heading detection at all (a line in capitals is as often a label as a heading): paragraphs
 * are blank-line separated, wrapped lines are joined, bullet-like lines keep their own line.
 */

export type PassageDraft = { headingPath: string[]; text: string }

/** A section shorter than this may still be its own passage; a cut is not made before this many words. */
export const PASSAGE_TARGET_WORDS = 120
/** Where a passage is closed at the next paragraph boundary. */
export const PASSAGE_SOFT_MAX_WORDS = 300
/** No passage is longer than this. */
export const PASSAGE_HARD_MAX_WORDS = 400
/** A section's last piece shorter than this joins the piece before it when the two fit under the hard maximum. */
const TAIL_MIN_WORDS = 60

type Section = { headingPath: string[]; blocks: string[] }

export function splitIntoPassages(input: {
  title: string
  text: string
  format: 'markdown' | 'plain'
}): PassageDraft[] {
  const sections =
    input.format === 'markdown' ? markdownSections(input.text, input.title) : plainSections(input.text)
  const passages: PassageDraft[] = []
  for (const section of sections) {
    for (const text of packBlocks(section.blocks)) {
      passages.push({ headingPath: section.headingPath, text })
    }
  }
  return passages
}

// ---------------------------------------------------------------------------------------------------------------
// Sections and blocks

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/
const FENCE = /^ {0,3}(`{3,}|~{3,})/
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/
const LINK_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*\S+.*$/
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/
const LIST_ITEM = /^\s*(?:[-*+•]|\d{1,9}[.)])\s+/
const BLANK = /^\s*$/

function normalizeNewlines(text: string) {
  return text.replace(/\r\n?/g, '\n').replaceAll('\0', '')
}

function markdownSections(source: string, title: string): Section[] {
  const lines = normalizeNewlines(source).split('\n')
  const sections: Section[] = []
  const stack: { level: number; text: string }[] = []
  const normalizedTitle = headingKey(title)
  let seenHeading = false
  let current: Section = { headingPath: [], blocks: [] }
  let paragraph: string[] = []
  let table: string[] = []

  const flushParagraph = () => {
    if (paragraph.length > 0) pushBlock(current, cleanMarkdownBlock(paragraph))
    paragraph = []
  }
  const flushTable = () => {
    if (table.length > 0) pushBlock(current, tableToText(table))
    table = []
  }
  const startSection = (level: number, rawText: string) => {
    flushParagraph()
    flushTable()
    if (current.blocks.length > 0) sections.push(current)
    const text = cleanInline(rawText).replace(/\s+/g, ' ').trim()
    const first = !seenHeading
    seenHeading = true
    // A document that opens with its own title as a heading: the caller adds the title already.
    if (first && level === 1 && text && headingKey(text) === normalizedTitle) {
      current = { headingPath: [], blocks: [] }
      return
    }
    while (stack.length > 0 && stack[stack.length - 1].level >= level) stack.pop()
    if (text) stack.push({ level, text })
    current = { headingPath: stack.map((h) => h.text), blocks: [] }
  }

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const fence = FENCE.exec(line)
    if (fence) {
      flushParagraph()
      flushTable()
      const marker = fence[1]
      const code: string[] = []
      i++
      while (i < lines.length && !lines[i].trimStart().startsWith(marker)) {
        code.push(lines[i])
        i++
      }
      pushBlock(current, codeToText(code))
      continue
    }
    const atx = ATX_HEADING.exec(line)
    if (atx) {
      startSection(atx[1].length, atx[2] ?? '')
      continue
    }
    if (BLANK.test(line)) {
      flushParagraph()
      flushTable()
      continue
    }
    const setext = SETEXT_UNDERLINE.exec(line)
    const last = paragraph[paragraph.length - 1]
    // Setext: the underlined line alone is the heading (conservatively, a short one that is not a list item).
    if (setext && last !== undefined && isSetextText(last)) {
      paragraph.pop()
      startSection(setext[1][0] === '=' ? 1 : 2, last)
      continue
    }
    if (THEMATIC_BREAK.test(line) || LINK_DEFINITION.test(line)) {
      flushParagraph()
      flushTable()
      continue
    }
    if (isTableLine(line, lines[i + 1], table.length > 0)) {
      flushParagraph()
      table.push(line)
      continue
    }
    flushTable()
    paragraph.push(line)
  }
  flushParagraph()
  flushTable()
  if (current.blocks.length > 0) sections.push(current)
  return sections
}

function isSetextText(line: string) {
  return !LIST_ITEM.test(line) && !/^\s*[>|]/.test(line) && countWords(line) <= 12
}

function plainSections(source: string): Section[] {
  const section: Section = { headingPath: [], blocks: [] }
  for (const chunk of normalizeNewlines(source).split(/\n[ \t\f\v]*\n/)) {
    pushBlock(
      section,
      joinLines(chunk.split('\n'), (line) => line),
    )
  }
  return section.blocks.length > 0 ? [section] : []
}

function pushBlock(section: Section, text: string) {
  if (text) section.blocks.push(text)
}

function headingKey(text: string) {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

// ---------------------------------------------------------------------------------------------------------------
// Markdown cleanup

/** Lines of one paragraph or list: block markers go, list items keep their own line, wrapped lines are joined. */
function cleanMarkdownBlock(lines: string[]) {
  const stripped = lines.map((line) => line.replace(/^\s*(?:>\s?)+/, ''))
  return joinLines(stripped, cleanInline)
}

function joinLines(lines: string[], clean: (line: string) => string) {
  const out: string[] = []
  for (const raw of lines) {
    const bullet = LIST_ITEM.exec(raw)
    const line = collapseSpaces(clean(bullet ? raw.slice(bullet[0].length) : raw))
    if (!line) continue
    if (bullet) out.push(`- ${line}`)
    else if (out.length > 0 && !/ {2,}$|\\$/.test(raw)) out[out.length - 1] += ` ${line}`
    else out.push(line)
  }
  return out.join('\n')
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

function decodeEntities(text: string) {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,5});/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole
    const code =
      name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}

/** Inline Markdown to plain text. Order matters: code spans first (their content is literal), images before links. */
export function cleanInline(text: string): string {
  const codeSpans: string[] = []
  // Code spans are set aside behind private-use placeholders, so that nothing below rewrites their content.
  let out = text
    .replace(/[\ue000\ue001]/g, '')
    .replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_, _ticks, code: string) => {
      codeSpans.push(code.trim())
      return `\ue000${codeSpans.length - 1}\ue001`
    })
  out = out
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/!\[[^\]]*\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, '')
    .replace(/!\[[^\]]*\]\[[^\]]*\]/g, '')
    .replace(/\[([^\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<((?:https?|mailto):[^\s>]+)>/gi, '$1')
    .replace(/<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/gi, ' ')
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(^|[^\p{L}\p{N}*\\])\*(?=[^\s*])([^*\n]*?[^\s*\\])\*(?![\p{L}\p{N}*])/gu, '$1$2')
    .replace(/(^|[^\p{L}\p{N}_\\])_(?=[^\s_])([^_\n]*?[^\s_\\])_(?![\p{L}\p{N}_])/gu, '$1$2')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
  out = decodeEntities(out)
  return out.replace(/\ue000(\d+)\ue001/g, (_, index: string) => codeSpans[Number(index)])
}

function collapseSpaces(text: string) {
  return text.replace(/[ \t\f\v\u00a0\u2000-\u200b\u3000]+/g, ' ').trim()
}

function codeToText(lines: string[]) {
  return lines
    .map((line) => line.replace(/\s+$/, ''))
    .filter((line) => line.trim() !== '')
    .join('\n')
}

function splitTableRow(line: string) {
  let row = line.trim()
  if (row.startsWith('|')) row = row.slice(1)
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1)
  return row.split(/(?<!\\)\|/).map((cell) => collapseSpaces(cleanInline(cell.replace(/\\\|/g, '|'))))
}

function isTableLine(line: string, next: string | undefined, inTable: boolean) {
  if (!line.includes('|')) return false
  if (inTable) return true
  return next !== undefined && TABLE_SEPARATOR.test(next) && next.includes('-')
}

/** A table with a header row becomes one "Header: cell; Header: cell" line per row, so each row reads alone. */
function tableToText(lines: string[]) {
  const rows = lines.filter((line) => !TABLE_SEPARATOR.test(line) || !line.includes('-')).map(splitTableRow)
  const hasHeader = lines.length > 1 && TABLE_SEPARATOR.test(lines[1])
  const header = hasHeader ? (rows.shift() ?? []) : []
  const out: string[] = []
  if (hasHeader && rows.length === 0) out.push(header.filter(Boolean).join(', '))
  for (const row of rows) {
    const cells = row.map((cell, i) => (cell && header[i] ? `${header[i]}: ${cell}` : cell)).filter(Boolean)
    if (cells.length > 0) out.push(cells.join('; '))
  }
  return out.join('\n')
}

// ---------------------------------------------------------------------------------------------------------------
// Sizing

function countWords(text: string) {
  let count = 0
  let inWord = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const space = code === 32 || code === 10 || code === 9 || code === 13
    if (!space && !inWord) count++
    inWord = !space
  }
  return count
}

type Piece = { text: string; words: number; joiner: string }

/** Cuts blocks longer than the hard maximum at sentence ends, then (a run-on sentence) between words. */
function pieces(blocks: string[]): Piece[] {
  const out: Piece[] = []
  for (const block of blocks) {
    const words = countWords(block)
    if (words <= PASSAGE_HARD_MAX_WORDS) {
      out.push({ text: block, words, joiner: '\n\n' })
      continue
    }
    const lineUnits = block.includes('\n') ? block.split('\n') : [block]
    lineUnits.forEach((unit, lineIndex) => {
      let joiner = lineIndex === 0 ? '\n\n' : '\n'
      for (const sentence of splitSentences(unit)) {
        for (const chunk of splitWords(sentence)) {
          out.push({ text: chunk, words: countWords(chunk), joiner })
          joiner = ' '
        }
      }
    })
  }
  return out
}

function splitSentences(text: string): string[] {
  if (countWords(text) <= PASSAGE_HARD_MAX_WORDS) return [text]
  return text.split(/(?<=[.!?…]["')\]’”]*)\s+(?=\S)/u)
}

function splitWords(sentence: string): string[] {
  const words = sentence.split(/\s+/).filter(Boolean)
  if (words.length <= PASSAGE_HARD_MAX_WORDS) return [sentence]
  const parts = Math.ceil(words.length / PASSAGE_SOFT_MAX_WORDS)
  const size = Math.ceil(words.length / parts)
  const out: string[] = []
  for (let i = 0; i < words.length; i += size) out.push(words.slice(i, i + size).join(' '))
  return out
}

function packBlocks(blocks: string[]): string[] {
  const passages: { parts: string[]; words: number }[] = []
  let current: { parts: string[]; words: number } = { parts: [], words: 0 }
  for (const piece of pieces(blocks)) {
    const joined = current.words + piece.words
    const full =
      current.words > 0 &&
      (joined > PASSAGE_HARD_MAX_WORDS ||
        (joined > PASSAGE_SOFT_MAX_WORDS && current.words >= PASSAGE_TARGET_WORDS))
    if (full) {
      passages.push(current)
      current = { parts: [], words: 0 }
    }
    current.parts.push(current.parts.length === 0 ? piece.text : `${piece.joiner}${piece.text}`)
    current.words += piece.words
  }
  if (current.words > 0) {
    const previous = passages[passages.length - 1]
    if (
      previous &&
      current.words < TAIL_MIN_WORDS &&
      previous.words + current.words <= PASSAGE_HARD_MAX_WORDS
    ) {
      previous.parts.push(`\n\n${current.parts.join('').trimStart()}`)
      previous.words += current.words
    } else {
      passages.push(current)
    }
  }
  return passages.map((p) => p.parts.join('').trim()).filter(Boolean)
}
