/**
 * A file's type read from its first bytes (the "magic numbers" of each format), never from what the sender or
 * the platform said: a page named voice.ogg is not audio. Undefined: none of the types we read or show.
 */
export type SniffedType = { contentType: string; kind: 'audio' | 'image' | 'pdf' }

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((char, i) => bytes[at + i] === char.charCodeAt(0))

export function sniffMedia(bytes: Uint8Array): SniffedType | undefined {
  if (ascii(bytes, 0, 'OggS')) return { contentType: 'audio/ogg', kind: 'audio' }
  if (
    ascii(bytes, 0, 'ID3') ||
    (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0 && bytes.length > 2)
  ) {
    return { contentType: 'audio/mpeg', kind: 'audio' }
  }
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WAVE')) return { contentType: 'audio/wav', kind: 'audio' }
  if (ascii(bytes, 0, '#!AMR')) return { contentType: 'audio/amr', kind: 'audio' }
  if (ascii(bytes, 0, 'fLaC')) return { contentType: 'audio/flac', kind: 'audio' }
  // ISO media (m4a, mp4, 3gp): a box of type "ftyp" first. Audio-only brands are named so; the rest play as mp4.
  if (ascii(bytes, 4, 'ftyp')) {
    const brand = String.fromCharCode(...bytes.slice(8, 12))
    return { contentType: brand.startsWith('M4A') ? 'audio/mp4' : 'video/mp4', kind: 'audio' }
  }
  // Matroska / WebM (browsers record voice as audio/webm).
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) {
    return { contentType: 'audio/webm', kind: 'audio' }
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return { contentType: 'image/jpeg', kind: 'image' }
  if (ascii(bytes, 1, 'PNG') && bytes[0] === 0x89) return { contentType: 'image/png', kind: 'image' }
  if (ascii(bytes, 0, 'GIF8')) return { contentType: 'image/gif', kind: 'image' }
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return { contentType: 'image/webp', kind: 'image' }
  if (ascii(bytes, 0, '%PDF-')) return { contentType: 'application/pdf', kind: 'pdf' }
  return undefined
}
