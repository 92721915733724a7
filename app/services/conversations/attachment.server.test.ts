import { describe, expect, it } from 'vitest'
import { ATTACHMENT_TEXTS } from '~/lib/conversations/attachments'
import { AppError } from '~/utils/errors'
import { makeDocx, makePdf } from '../../../tests/fakes/documents'
import { photo } from '../../../tests/fakes/photo'
import { checkAttachment } from './attachment.server'

const refusal = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message }
    throw error
  }
  throw new Error('expected a refusal')
}
const jpeg = (bytes: number) => Uint8Array.from({ length: bytes }, (_, i) => (i < 3 ? [0xff, 0xd8, 0xff][i] : 0))

describe("a person's attachment", () => {
  it('is a photo or a document by its content, whatever its name, and keeps a clean name and the caption', async () => {
    const png = photo()
    expect(checkAttachment('telegram', { bytes: png, fileName: 'C:\\shots\\box.txt' }, ' Here it is ')).toEqual({
      bytes: png,
      contentType: 'image/png',
      kind: 'photo',
      fileName: 'box.txt',
      caption: 'Here it is',
    })
    const pdf = makePdf([['Price list']])
    expect(checkAttachment('whatsapp', { bytes: pdf, fileName: 'prices.pdf' }, '')).toMatchObject({
      kind: 'file',
      contentType: 'application/pdf',
      fileName: 'prices.pdf',
      caption: undefined,
    })
    const docx = await makeDocx([{ text: 'Terms' }])
    expect(checkAttachment('facebook', { bytes: docx, fileName: 'terms.docx' }, undefined)).toMatchObject({
      kind: 'file',
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    })
    const text = new TextEncoder().encode('Opening hours: 9 to 5')
    expect(checkAttachment('telegram', { bytes: text, fileName: '' }, undefined)).toMatchObject({
      kind: 'file',
      contentType: 'text/plain',
      fileName: 'document',
    })
    const csv = new TextEncoder().encode('item;price\nbread;2.50\n')
    expect(checkAttachment('whatsapp', { bytes: csv, fileName: 'prices.csv' }, undefined).kind).toBe('file')
  })

  it('refuses what is not a JPEG, PNG, PDF, Word or text file, by its content', () => {
    const unsupported = { code: 'VALIDATION_ERROR', message: ATTACHMENT_TEXTS.unsupported }
    const page = new TextEncoder().encode('<html><script>alert(1)</script></html>')
    expect(refusal(() => checkAttachment('telegram', { bytes: page, fileName: 'fake.pdf' }, 'x'))).toEqual(
      unsupported,
    )
    const exe = Uint8Array.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0xff, 0xfe])
    expect(refusal(() => checkAttachment('telegram', { bytes: exe, fileName: 'setup.exe' }, 'x'))).toEqual(
      unsupported,
    )
    const html = new TextEncoder().encode('<p>hello</p>')
    expect(refusal(() => checkAttachment('telegram', { bytes: html, fileName: 'page.html' }, 'x'))).toEqual(
      unsupported,
    )
    const gif = new TextEncoder().encode('GIF89a....')
    expect(refusal(() => checkAttachment('whatsapp', { bytes: gif, fileName: 'a.txt' }, 'x'))).toEqual(
      unsupported,
    )
    expect(refusal(() => checkAttachment('whatsapp', { bytes: new Uint8Array(), fileName: 'a.txt' }, 'x'))).toEqual(
      unsupported,
    )
  })

  it("refuses a file over the platform's limit with the limit in words", () => {
    const fiveMb = 5 * 1024 * 1024
    expect(checkAttachment('whatsapp', { bytes: jpeg(fiveMb), fileName: 'a.jpg' }, undefined).kind).toBe('photo')
    expect(refusal(() => checkAttachment('whatsapp', { bytes: jpeg(fiveMb + 1), fileName: 'a.jpg' }, 'x'))).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'A picture sent on WhatsApp can be at most 5 MB',
    })
    // Telegram takes photos up to 10 MB.
    expect(checkAttachment('telegram', { bytes: jpeg(fiveMb + 1), fileName: 'a.jpg' }, undefined).kind).toBe('photo')
    const bigText = new Uint8Array(20 * 1024 * 1024 + 1).fill(0x61)
    expect(refusal(() => checkAttachment('facebook', { bytes: bigText, fileName: 'a.txt' }, 'x'))).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'A file sent on Facebook can be at most 20 MB',
    })
  })
})
