import { createHash } from 'node:crypto'

/**
 * A real Ogg Opus voice note, as Telegram and WhatsApp send them, made in the test instead of committed: an
 * OpusHead and an OpusTags page, then silent 20 ms frames. `label` goes into its tags, so that each test's clip
 * has its own bytes (the transcription fake knows clips by their hash). Browsers play it.
 */
export function voiceNote(label: string, seconds = 1): Buffer {
  const serial = createHash('sha256').update(label).digest().readUInt32LE(0)
  const head = Buffer.alloc(19)
  head.write('OpusHead', 0, 'ascii')
  head.writeUInt8(1, 8) // version
  head.writeUInt8(1, 9) // mono
  head.writeUInt16LE(PRE_SKIP, 10)
  head.writeUInt32LE(48_000, 12)
  head.writeInt16LE(0, 16) // output gain
  head.writeUInt8(0, 18) // channel mapping family
  const vendor = Buffer.from('replypilot tests', 'utf8')
  const comment = Buffer.from(`TITLE=${label}`, 'utf8')
  const tags = Buffer.concat([
    Buffer.from('OpusTags', 'ascii'),
    uint32(vendor.length),
    vendor,
    uint32(1),
    uint32(comment.length),
    comment,
  ])
  const pages = [page({ serial, sequence: 0, granule: 0n, flags: 0x02, data: head })]
  pages.push(page({ serial, sequence: 1, granule: 0n, flags: 0, data: tags }))
  const frames = Math.max(1, Math.round((seconds * 1000) / 20))
  for (let i = 0; i < frames; i++) {
    pages.push(
      page({
        serial,
        sequence: i + 2,
        granule: BigInt(PRE_SKIP + 960 * (i + 1)),
        flags: i === frames - 1 ? 0x04 : 0,
        data: SILENT_FRAME,
      }),
    )
  }
  return Buffer.concat(pages)
}

/** The SHA-256 of a file, as the transcription fake knows it. */
export { sha256Of } from './hash'

const PRE_SKIP = 312
/** One 20 ms CELT-only full-band mono frame of silence (TOC 0xF8). */
const SILENT_FRAME = Buffer.from([0xf8, 0xff, 0xfe])

function uint32(value: number) {
  const buffer = Buffer.alloc(4)
  buffer.writeUInt32LE(value)
  return buffer
}

function page(p: { serial: number; sequence: number; granule: bigint; flags: number; data: Buffer }) {
  const segments: number[] = []
  for (let left = p.data.length; ; left -= 255) {
    segments.push(Math.min(left, 255))
    if (left < 255) break
  }
  const header = Buffer.alloc(27 + segments.length)
  header.write('OggS', 0, 'ascii')
  header.writeUInt8(0, 4)
  header.writeUInt8(p.flags, 5)
  header.writeBigInt64LE(p.granule, 6)
  header.writeUInt32LE(p.serial, 14)
  header.writeUInt32LE(p.sequence, 18)
  header.writeUInt32LE(0, 22)
  header.writeUInt8(segments.length, 26)
  segments.forEach((size, i) => header.writeUInt8(size, 27 + i))
  const pageBytes = Buffer.concat([header, p.data])
  pageBytes.writeUInt32LE(oggCrc(pageBytes), 22)
  return pageBytes
}

const CRC_TABLE = Array.from({ length: 256 }, (_, i) => {
  let r = i << 24
  for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1
  return r >>> 0
})

/** Ogg's CRC-32 (polynomial 0x04C11DB7, not reflected, initial value 0). */
function oggCrc(bytes: Buffer) {
  let crc = 0
  for (const byte of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]) >>> 0
  return crc
}
