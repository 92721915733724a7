import { describe, expect, it } from 'vitest'
import { voiceNote } from '../../../tests/fakes/voice-note'
import { sniffMedia } from './sniff'

describe('sniffMedia', () => {
  it('reads a file by its first bytes, whatever it was called', () => {
    expect(sniffMedia(voiceNote('a'))).toEqual({ contentType: 'audio/ogg', kind: 'audio' })
    expect(sniffMedia(Buffer.from('ID3\x04\x00rest', 'latin1'))).toEqual({
      contentType: 'audio/mpeg',
      kind: 'audio',
    })
    expect(sniffMedia(Buffer.from('\x00\x00\x00\x20ftypM4A \x00', 'latin1'))?.contentType).toBe('audio/mp4')
    expect(sniffMedia(Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1'))?.contentType).toBe('audio/wav')
    expect(sniffMedia(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x01]))?.contentType).toBe('audio/webm')
    expect(sniffMedia(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]))).toEqual({
      contentType: 'image/jpeg',
      kind: 'image',
    })
    expect(sniffMedia(Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'))?.contentType).toBe('image/png')
    expect(sniffMedia(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))?.contentType).toBe('image/webp')
    expect(sniffMedia(Buffer.from('%PDF-1.7\n'))).toEqual({ contentType: 'application/pdf', kind: 'pdf' })
  })

  it('reads nothing into a page, a script or too few bytes', () => {
    expect(sniffMedia(Buffer.from('<html><body>voice.ogg</body></html>'))).toBeUndefined()
    expect(sniffMedia(Buffer.from('MZ\x90\x00', 'latin1'))).toBeUndefined()
    expect(sniffMedia(Buffer.from('Ogg'))).toBeUndefined()
    expect(sniffMedia(Buffer.from([0xff]))).toBeUndefined()
    expect(sniffMedia(new Uint8Array())).toBeUndefined()
  })
})
