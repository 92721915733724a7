import { describe, expect, it } from 'vitest'
import { fileResponse } from './file-response.server'

const bytes = Buffer.from('0123456789')
const get = (range?: string) =>
  new Request('http://app/conversations/c/media/m', range ? { headers: { range } } : undefined)

describe('fileResponse', () => {
  it('a sound or a picture is shown in the page with its type, and never run as a page', async () => {
    const response = fileResponse(get(), { contentType: 'audio/ogg', bytes, fileName: null })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('audio/ogg')
    expect(response.headers.get('content-disposition')).toBe('inline')
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
    expect(response.headers.get('content-length')).toBe('10')
    expect(Buffer.from(await response.arrayBuffer()).toString()).toBe('0123456789')
  })

  it('anything else is downloaded under a cleaned name, as bytes of no type', () => {
    const response = fileResponse(get(), {
      contentType: 'application/pdf',
      bytes,
      fileName: '../Fac<tura> "2026".pdf',
    })
    expect(response.headers.get('content-type')).toBe('application/octet-stream')
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename*=UTF-8''..Factura%202026.pdf`,
    )
  })

  it('answers one byte range (206), the last bytes, and refuses a range past the end (416)', async () => {
    const first = fileResponse(get('bytes=2-4'), { contentType: 'audio/ogg', bytes, fileName: null })
    expect(first.status).toBe(206)
    expect(first.headers.get('content-range')).toBe('bytes 2-4/10')
    expect(Buffer.from(await first.arrayBuffer()).toString()).toBe('234')
    const open = fileResponse(get('bytes=7-'), { contentType: 'audio/ogg', bytes, fileName: null })
    expect(Buffer.from(await open.arrayBuffer()).toString()).toBe('789')
    const last = fileResponse(get('bytes=-2'), { contentType: 'audio/ogg', bytes, fileName: null })
    expect(Buffer.from(await last.arrayBuffer()).toString()).toBe('89')
    const past = fileResponse(get('bytes=10-'), { contentType: 'audio/ogg', bytes, fileName: null })
    expect(past.status).toBe(416)
    expect(past.headers.get('content-range')).toBe('bytes */10')
    // Not one range we read: the whole file.
    expect(
      fileResponse(get('bytes=1-2,4-5'), { contentType: 'audio/ogg', bytes, fileName: null }).status,
    ).toBe(200)
  })
})
