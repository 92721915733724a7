import { describe, expect, it } from 'vitest'
import {
  DOCX_MAX_UNZIPPED_BYTES,
  KnowledgeExtractError,
  UNSUPPORTED_FILE,
  extractDocument,
  looksLikeMarkdown,
} from '~/services/knowledge/extract.server'
import { splitIntoPassages } from '~/services/knowledge/passages'
import { PDF_READ_LIMITS, readPdf } from '~/services/knowledge/pdf-reader.server'
import { PNG_BYTES, makeDocx, makePdf, makeZip } from '../../../tests/fakes/documents'

const utf8 = (text: string) => new TextEncoder().encode(text)

async function refusal(bytes: Uint8Array, name: string) {
  const error = await extractDocument(bytes, name).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(KnowledgeExtractError)
  return (error as KnowledgeExtractError).message
}

describe('extractDocument: PDF', () => {
  it('reads the text of each page in order, paragraphs and pages separated by blank lines', async () => {
    const pdf = makePdf(
      [
        ['Returns policy', '', 'You can return any item within', '30 days of delivery (in its box).'],
        ['Refunds reach your card in five days.'],
      ],
      { title: 'Shop help' },
    )
    const document = await extractDocument(pdf, 'help.pdf')
    expect(document).toEqual({
      kind: 'pdf',
      format: 'plain',
      title: 'Shop help',
      text:
        'Returns policy\n\nYou can return any item within\n30 days of delivery (in its box).\n\n' +
        'Refunds reach your card in five days.',
    })
  })

  it('goes by content: a PDF named .txt is read as a PDF', async () => {
    const document = await extractDocument(makePdf([['Hello from a PDF.']]), 'notes.txt')
    expect(document.kind).toBe('pdf')
    expect(document.text).toBe('Hello from a PDF.')
  })

  it('refuses a PDF without text, and a damaged one', async () => {
    expect(await refusal(makePdf([[]]), 'scan.pdf')).toBe(
      'This PDF has no text we can read (it may be a scanned image).',
    )
    const whole = makePdf([['Some text that is long enough.']])
    expect(await refusal(whole.subarray(0, 40), 'cut.pdf')).toMatch(/could not be read|no text we can read/)
    expect(await refusal(utf8('%PDF-1.7\n' + 'garbage '.repeat(50)), 'junk.pdf')).toMatch(
      /could not be read|no text we can read/,
    )
  })
})

describe('readPdf: pdf.js on a thread of its own', () => {
  const longPdf = () =>
    makePdf(Array.from({ length: 1500 }, (_, i) => [`Care note ${i}`, 'Wash at 30 degrees, inside out.']))

  it('returns every page, and leaves the caller its bytes', async () => {
    const bytes = makePdf([['First page.'], ['Second page.']])
    const read = await readPdf(bytes)
    expect(read.ok && read.pages.map((page) => page.map((item) => item.str).join(''))).toEqual([
      'First page.',
      'Second page.',
    ])
    // pdf.js detaches the buffer it is given: the thread gets a copy.
    expect(bytes.byteLength).toBeGreaterThan(0)
    expect(await extractDocument(bytes, 'again.pdf')).toMatchObject({ text: 'First page.\n\nSecond page.' })
  })

  it('stops a PDF that takes longer than the time limit, or more memory than the memory limit', async () => {
    const bytes = longPdf()
    expect(await readPdf(bytes, { timeoutMs: 200, memoryMb: 1024 })).toEqual({
      ok: false,
      reason: 'too-slow',
    })
    expect(await readPdf(bytes, { timeoutMs: 60_000, memoryMb: 16 })).toEqual({
      ok: false,
      reason: 'too-large',
    })
    // The same PDF within the limits the jobs use.
    const read = await readPdf(bytes, PDF_READ_LIMITS)
    expect(read.ok && read.pages.length).toBe(1500)
  })

  it('throws when the reader itself fails (pdf.js not found), rather than calling the PDF damaged', async () => {
    const missing = new URL('./no-such-pdfjs.mjs', import.meta.url).href
    await expect(readPdf(makePdf([['Fine.']]), PDF_READ_LIMITS, missing)).rejects.toThrow(
      'The PDF reader failed',
    )
  })
})

describe('extractDocument: DOCX', () => {
  it('keeps headings as Markdown headings, so passages get heading paths', async () => {
    const docx = await makeDocx([
      { style: 'Heading1', text: 'Delivery' },
      { text: 'We ship within two days.' },
      { style: 'Heading2', text: 'Abroad' },
      { text: 'EU orders take a week & cost €5.' },
    ])
    const document = await extractDocument(docx, 'Delivery.docx')
    expect(document).toEqual({
      kind: 'docx',
      format: 'markdown',
      title: 'Delivery',
      text: '# Delivery\n\nWe ship within two days.\n\n## Abroad\n\nEU orders take a week & cost €5.',
    })
    expect(splitIntoPassages({ title: 'Delivery', text: document.text, format: document.format })).toEqual([
      { headingPath: [], text: 'We ship within two days.' },
      { headingPath: ['Abroad'], text: 'EU orders take a week & cost €5.' },
    ])
  })

  it('refuses a ZIP that is not a Word document', async () => {
    expect(await refusal(await makeZip({ 'readme.txt': 'hello' }), 'archive.docx')).toBe(UNSUPPORTED_FILE)
  })

  it('refuses a zip bomb before unpacking it', async () => {
    const docx = await makeDocx([{ text: 'x' }], { extra: { 'word/bomb.xml': 'a'.repeat(1024 * 1024) } })
    // An entry that lies about its size: it declares 10 bytes and inflates to 1 MB.
    expect(await refusal(withDeclaredSize(docx, 'word/bomb.xml', 10), 'bomb.docx')).toBe(
      'This Word document is too large once unpacked.',
    )
    // One that declares more than the cap is refused before any inflating.
    expect(
      await refusal(withDeclaredSize(docx, 'word/bomb.xml', DOCX_MAX_UNZIPPED_BYTES + 1), 'big.docx'),
    ).toBe('This Word document is too large once unpacked.')
  })
})

/** A copy of the ZIP whose central directory declares another uncompressed size for one entry. */
function withDeclaredSize(zip: Uint8Array, name: string, size: number) {
  const view = Buffer.from(zip)
  const header = Buffer.from([0x50, 0x4b, 0x01, 0x02])
  for (let at = view.indexOf(header); at !== -1; at = view.indexOf(header, at + 4)) {
    const nameLength = view.readUInt16LE(at + 28)
    if (view.toString('utf8', at + 46, at + 46 + nameLength) === name) {
      view.writeUInt32LE(size, at + 24)
      return view
    }
  }
  throw new Error(`no entry ${name}`)
}

describe('extractDocument: text', () => {
  it('reads UTF-8 (with or without a BOM) and UTF-16 with a BOM', async () => {
    expect(await extractDocument(utf8('Plain words.\r\nNext line.'), 'a.txt')).toEqual({
      kind: 'text',
      format: 'plain',
      text: 'Plain words.\nNext line.',
    })
    const bom = Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('Café')])
    expect((await extractDocument(bom, 'a.txt')).text).toBe('Café')
    const utf16 = Uint8Array.from([0xff, 0xfe, ...Buffer.from('Grüße', 'utf16le')])
    expect((await extractDocument(utf16, 'a.txt')).text).toBe('Grüße')
  })

  it('calls it Markdown by name or by its look', async () => {
    const byName = await extractDocument(utf8('Just a line.'), 'Notes.MD')
    expect(byName).toEqual({ kind: 'markdown', format: 'markdown', text: 'Just a line.' })
    const byLook = await extractDocument(utf8('# Guide\n\nSee [the docs](https://x.test).\n'), 'guide.txt')
    expect(byLook).toMatchObject({ kind: 'markdown', format: 'markdown', title: 'Guide' })
    expect(looksLikeMarkdown('Dear customer,\n\nThanks for your order - it ships today.')).toBe(false)
  })

  it('refuses renamed binaries, legacy Word files and empty files', async () => {
    expect(await refusal(PNG_BYTES, 'photo.txt')).toBe(UNSUPPORTED_FILE)
    expect(
      await refusal(Uint8Array.from([...utf8('looks like text'), 0, ...utf8('but has NUL')]), 'a.txt'),
    ).toBe(UNSUPPORTED_FILE)
    expect(await refusal(Uint8Array.from([0xc3, 0x28, 0x41]), 'latin.txt')).toBe(UNSUPPORTED_FILE)
    expect(
      await refusal(Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), 'a.doc'),
    ).toMatch(/Save the document as \.docx/)
    expect(await refusal(new Uint8Array(0), 'empty.txt')).toBe('This file is empty.')
    expect(await refusal(utf8('  \n\n '), 'blank.txt')).toBe('This file has no text in it.')
  })
})
