import { inflateRawSync } from 'node:zlib'
import mammoth from 'mammoth'
import { htmlToMarkdown } from '~/integrations/web/html-to-markdown'
import { knowledgeFileExtension, UNSUPPORTED_FILE_MESSAGE } from '~/lib/knowledge/knowledge'
import { readPdf, type PdfItem, type PdfReadResult } from './pdf-reader.server'

/**
 * Text out of an uploaded file. The kind is decided by the bytes, never by the name: a PDF renamed to `.txt` is
 * read as the PDF it is (the name is the user's label, the bytes are what we parse; refusing it would only make
 * the user rename it back), a PNG renamed to `.txt` is refused. Text must be valid UTF-8 (a BOM is allowed) or
 * UTF-16 with a BOM. The name only chooses between Markdown and plain text, together with how the text looks.
 *
 * Nothing in a file is executed: pdf.js runs with `isEvalSupported: false`, no font loading and no scripting, on a
 * thread of its own with a time and memory limit (pdf-reader.server.ts);
 * mammoth reads a DOCX as XML with external file access off. A DOCX is checked before mammoth opens it: the ZIP's
 * entries must inflate to no more than they declare, and all of them together to at most DOCX_MAX_UNZIPPED_BYTES
 * (a zip bomb is refused, not unpacked).
 */

export type ExtractedDocument = {
  kind: 'pdf' | 'docx' | 'markdown' | 'text'
  format: 'markdown' | 'plain'
  text: string
  title?: string
}

/** The message is for the user: plain English, says what to do where there is something to do. */
export class KnowledgeExtractError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'KnowledgeExtractError'
  }
}

export const DOCX_MAX_UNZIPPED_BYTES = 50 * 1024 * 1024
/** Of a text file's characters, at most this share may be control characters other than tab, newline, form feed. */
const MAX_CONTROL_SHARE = 0.001

export const UNSUPPORTED_FILE = UNSUPPORTED_FILE_MESSAGE
const EMPTY_FILE = 'This file is empty.'
const PDF_UNREADABLE = 'This PDF could not be read: it may be damaged or incomplete.'
const PDF_ENCRYPTED = 'This PDF is protected by a password. Remove the password and upload it again.'
const PDF_NO_TEXT = 'This PDF has no text we can read (it may be a scanned image).'
const PDF_FAILURES: Record<Extract<PdfReadResult, { ok: false }>['reason'], string> = {
  unreadable: PDF_UNREADABLE,
  encrypted: PDF_ENCRYPTED,
  'too-slow': 'This PDF took too long to read. Split it into smaller files and upload them again.',
  'too-large': 'This PDF needs too much memory to read. Split it into smaller files and upload them again.',
}
const DOCX_UNREADABLE = 'This Word document could not be read: it may be damaged.'
const DOCX_TOO_LARGE = 'This Word document is too large once unpacked.'
const DOC_LEGACY = 'Old Word (.doc) files are not supported. Save the document as .docx and upload it again.'
const NO_TEXT = 'This file has no text in it.'

export async function extractDocument(bytes: Uint8Array, fileName: string): Promise<ExtractedDocument> {
  if (bytes.length === 0) throw new KnowledgeExtractError(EMPTY_FILE)
  if (isPdf(bytes)) return extractPdf(bytes)
  if (isZip(bytes)) return extractDocx(bytes)
  if (isLegacyDoc(bytes)) throw new KnowledgeExtractError(DOC_LEGACY)
  const text = decodeText(bytes)
  if (text === undefined) throw new KnowledgeExtractError(UNSUPPORTED_FILE)
  if (text.trim() === '') throw new KnowledgeExtractError(NO_TEXT)
  const markdown = /\.(md|markdown|mdown|mkd|mkdn)$/i.test(fileName.trim()) || looksLikeMarkdown(text)
  return markdown
    ? { kind: 'markdown', format: 'markdown', text, title: firstHeading(text) }
    : { kind: 'text', format: 'plain', text }
}

/**
 * Why an upload is refused before it is stored, if it is: its name must be one of the kinds we take, and its bytes
 * must be of the kind its name says: a PDF named `.pdf`, a Word document named `.docx` (an HTML page saved as
 * `fake.pdf` is not read as text). A `.txt` or `.md` may hold a PDF or a Word document (read as what it is, see
 * above), else clean text. Whether a PDF or a Word document can be read is for the job to find out.
 */
export function uploadRefusal(bytes: Uint8Array, fileName: string): string | undefined {
  if (bytes.length === 0) return EMPTY_FILE
  if (isLegacyDoc(bytes)) return DOC_LEGACY
  const extension = knowledgeFileExtension(fileName)
  if (extension === '.pdf') return isPdf(bytes) ? undefined : UNSUPPORTED_FILE
  if (extension === '.docx') return isZip(bytes) ? undefined : UNSUPPORTED_FILE
  if (extension === undefined) return UNSUPPORTED_FILE
  if (isPdf(bytes) || isZip(bytes)) return undefined
  return decodeText(bytes) === undefined ? UNSUPPORTED_FILE : undefined
}

export const isZip = (bytes: Uint8Array) =>
  startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])
const isLegacyDoc = (bytes: Uint8Array) => startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])

function startsWith(bytes: Uint8Array, prefix: number[], at = 0) {
  return prefix.every((byte, i) => bytes[at + i] === byte)
}

/** `%PDF-` within the first 1024 bytes, as PDF readers accept it (some writers put junk before the header). */
function isPdf(bytes: Uint8Array) {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024))
  return head.indexOf('%PDF-', 0, 'latin1') !== -1
}

// ---------------------------------------------------------------------------------------------------------------
// Text

/** The text of a UTF-8 (BOM optional) or BOM-marked UTF-16 file; undefined for anything that is not clean text. */
export function decodeText(bytes: Uint8Array): string | undefined {
  let text: string
  try {
    if (startsWith(bytes, [0xff, 0xfe]))
      text = new TextDecoder('utf-16le', { fatal: true }).decode(bytes.subarray(2))
    else if (startsWith(bytes, [0xfe, 0xff])) {
      text = new TextDecoder('utf-16be', { fatal: true }).decode(bytes.subarray(2))
    } else text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
  } catch {
    return undefined
  }
  let control = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 0) return undefined
    if (
      (code < 32 && code !== 9 && code !== 10 && code !== 12 && code !== 13) ||
      (code >= 0x7f && code < 0xa0)
    ) {
      control++
    }
  }
  return control > Math.max(2, text.length * MAX_CONTROL_SHARE) ? undefined : text.replace(/\r\n?/g, '\n')
}

/** Markdown if it has a heading and one other sign of Markdown, or two other kinds of signs. */
export function looksLikeMarkdown(text: string): boolean {
  const sample = text.slice(0, 100_000)
  const heading = /^ {0,3}#{1,6}[ \t]+\S/m.test(sample) || /^\S.*\n {0,3}(=+|-{3,})[ \t]*$/m.test(sample)
  const signs = [
    /\[[^\]\n]+\]\([^)\s]+\)/.test(sample),
    /^ {0,3}(```|~~~)/m.test(sample),
    /^\s*\|.*\|\s*\n\s*\|?\s*:?-{3,}/m.test(sample),
    /(\*\*|__)\S[^\n]*?\S\1/.test(sample),
    /^\s*[-*+][ \t]+\S/m.test(sample),
    /^ {0,3}>[ \t]?\S/m.test(sample),
  ].filter(Boolean).length
  return (heading && signs >= 1) || signs >= 2
}

function firstHeading(markdown: string) {
  const match = /^ {0,3}#[ \t]+(.+?)[ \t#]*$/m.exec(markdown)
  return match ? match[1].trim() || undefined : undefined
}

// ---------------------------------------------------------------------------------------------------------------
// PDF

async function extractPdf(bytes: Uint8Array): Promise<ExtractedDocument> {
  const read = await readPdf(bytes)
  if (!read.ok) throw new KnowledgeExtractError(PDF_FAILURES[read.reason])
  const text = read.pages
    .map(pageText)
    .filter((page) => page !== '')
    .join('\n\n')
  if (!/[\p{L}\p{N}]/u.test(text)) throw new KnowledgeExtractError(PDF_NO_TEXT)
  const title = read.title?.trim()
  return { kind: 'pdf', format: 'plain', text, ...(title && { title }) }
}

/**
 * A page's text items in the order pdf.js gives them (the content stream's, which is reading order for nearly
 * every PDF a business writes), as lines; a vertical gap clearly larger than the page's usual line spacing starts
 * a new paragraph (a blank line). Words hyphenated at a line end are joined.
 */
function pageText(items: PdfItem[]): string {
  const lines: { text: string; y: number; height: number }[] = []
  let current: { text: string; y: number; height: number } | undefined
  for (const { y, height, ...item } of items) {
    if (current && Math.abs(current.y - y) > Math.max(2, height * 0.5) && current.text.trim()) {
      lines.push(current)
      current = undefined
    }
    if (!current) current = { text: '', y, height }
    // Items on one line are glyph runs side by side; pdf.js puts a word gap into `str` itself.
    current.text += item.str
    current.height = Math.max(current.height, height)
    if (item.hasEOL && current.text.trim()) {
      lines.push(current)
      current = undefined
    }
  }
  if (current?.text.trim()) lines.push(current)

  const gaps: number[] = []
  for (let i = 1; i < lines.length; i++) {
    const gap = lines[i - 1].y - lines[i].y
    if (gap > 0) gaps.push(gap)
  }
  gaps.sort((a, b) => a - b)
  // The lower quartile: body text's spacing, even on a page with few lines and several paragraph gaps.
  const usual = gaps.length > 0 ? gaps[Math.floor((gaps.length - 1) / 4)] : 0

  let out = ''
  lines.forEach((line, i) => {
    const text = line.text.replace(/\s+/g, ' ').trim()
    if (!text) return
    if (i === 0) {
      out = text
      return
    }
    const gap = lines[i - 1].y - line.y
    const paragraph = usual > 0 && (gap > usual * 1.4 || gap < -line.height * 2)
    if (paragraph) out += `\n\n${text}`
    else if (/\p{L}-$/u.test(out) && /^\p{Ll}/u.test(text)) out = out.slice(0, -1) + text
    else out += `\n${text}`
  })
  return out
}

// ---------------------------------------------------------------------------------------------------------------
// DOCX

type ZipEntry = { name: string; method: number; compressedSize: number; size: number; dataStart: number }

/** The central directory of a ZIP, read by hand so that sizes can be checked before anything is unpacked. */
function readZipEntries(bytes: Uint8Array): ZipEntry[] {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
  const minEnd = Math.max(0, view.length - 22 - 0xffff)
  let end = -1
  for (let i = view.length - 22; i >= minEnd; i--) {
    if (view.readUInt32LE(i) === 0x06054b50) {
      end = i
      break
    }
  }
  if (end < 0) throw new KnowledgeExtractError(DOCX_UNREADABLE)
  const count = view.readUInt16LE(end + 10)
  const directorySize = view.readUInt32LE(end + 12)
  const directoryStart = view.readUInt32LE(end + 16)
  if (count === 0xffff || directoryStart === 0xffffffff || directoryStart + directorySize > end) {
    throw new KnowledgeExtractError(DOCX_UNREADABLE)
  }
  const entries: ZipEntry[] = []
  let at = directoryStart
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || view.readUInt32LE(at) !== 0x02014b50)
      throw new KnowledgeExtractError(DOCX_UNREADABLE)
    const method = view.readUInt16LE(at + 10)
    const compressedSize = view.readUInt32LE(at + 20)
    const size = view.readUInt32LE(at + 24)
    const nameLength = view.readUInt16LE(at + 28)
    const extraLength = view.readUInt16LE(at + 30)
    const commentLength = view.readUInt16LE(at + 32)
    const localHeader = view.readUInt32LE(at + 42)
    const name = view.toString('utf8', at + 46, at + 46 + nameLength)
    if (localHeader + 30 > view.length || view.readUInt32LE(localHeader) !== 0x04034b50) {
      throw new KnowledgeExtractError(DOCX_UNREADABLE)
    }
    const dataStart =
      localHeader + 30 + view.readUInt16LE(localHeader + 26) + view.readUInt16LE(localHeader + 28)
    if (dataStart + compressedSize > view.length) throw new KnowledgeExtractError(DOCX_UNREADABLE)
    entries.push({ name, method, compressedSize, size, dataStart })
    at += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

/** Every entry must unpack to no more than it declares, and all of them together to at most the cap. */
function checkZipSizes(bytes: Uint8Array, entries: ZipEntry[]) {
  let total = 0
  for (const entry of entries) {
    total += entry.size
    if (total > DOCX_MAX_UNZIPPED_BYTES) throw new KnowledgeExtractError(DOCX_TOO_LARGE)
  }
  for (const entry of entries) {
    const data = bytes.subarray(entry.dataStart, entry.dataStart + entry.compressedSize)
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.size) throw new KnowledgeExtractError(DOCX_UNREADABLE)
      continue
    }
    if (entry.method !== 8) throw new KnowledgeExtractError(DOCX_UNREADABLE)
    let unpacked: Buffer
    try {
      unpacked = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) })
    } catch (error) {
      const tooLarge =
        error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
      throw new KnowledgeExtractError(tooLarge ? DOCX_TOO_LARGE : DOCX_UNREADABLE, { cause: error })
    }
    if (unpacked.length !== entry.size) throw new KnowledgeExtractError(DOCX_UNREADABLE)
  }
}

async function extractDocx(bytes: Uint8Array): Promise<ExtractedDocument> {
  const entries = readZipEntries(bytes)
  if (!entries.some((entry) => entry.name === 'word/document.xml')) {
    const legacyOdt = entries.some((entry) => entry.name === 'content.xml')
    throw new KnowledgeExtractError(
      legacyOdt ? `${UNSUPPORTED_FILE} Save the document as .docx and upload it again.` : UNSUPPORTED_FILE,
    )
  }
  checkZipSizes(bytes, entries)
  let html: string
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length) },
      {
        externalFileAccess: false,
        ignoreEmptyParagraphs: true,
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
      },
    )
    html = result.value
  } catch (error) {
    throw new KnowledgeExtractError(DOCX_UNREADABLE, { cause: error })
  }
  const text = htmlToMarkdown(html)
  if (!/[\p{L}\p{N}]/u.test(text)) throw new KnowledgeExtractError(NO_TEXT)
  return { kind: 'docx', format: 'markdown', text, title: firstHeading(text) }
}
