import { describe, expect, it } from 'vitest'
import { telegramInbound } from './inbound.server'
import { telegramUpdateSchema } from './update.server'

const update = (message: Record<string, unknown>) =>
  telegramUpdateSchema.parse({
    update_id: 1,
    message: { message_id: 7, date: 1_700_000_000, chat: { id: 42, type: 'private' }, ...message },
  })

describe('telegramInbound: the file a message carries', () => {
  it('a voice note: its file_id, type, size and caption, pending', () => {
    const inbound = telegramInbound(
      update({
        voice: {
          file_id: 'AwAC-voice',
          file_unique_id: 'u1',
          duration: 3,
          mime_type: 'audio/ogg',
          file_size: 5120,
        },
        caption: ' call me back ',
      }),
    )
    expect(inbound).toMatchObject({ kind: 'voice', text: '[voice note] call me back' })
    expect(inbound?.media).toEqual({
      source: 'telegram',
      ref: 'AwAC-voice',
      contentType: 'audio/ogg',
      byteSize: 5120,
      caption: 'call me back',
      state: 'pending',
    })
  })

  it('a photo: its largest size; a document: its name', () => {
    const photo = telegramInbound(
      update({
        photo: [
          { file_id: 'small', file_size: 10 },
          { file_id: 'large', file_size: 900 },
        ],
      }),
    )
    expect(photo?.media).toMatchObject({ ref: 'large', byteSize: 900 })
    const document = telegramInbound(update({ document: { file_id: 'doc', file_name: 'invoice.pdf' } }))
    expect(document?.media).toMatchObject({ ref: 'doc', fileName: 'invoice.pdf' })
  })

  it('a text, a sticker, or a voice note without a usable file: nothing to fetch, still stored', () => {
    expect(telegramInbound(update({ text: 'hello' }))?.media).toBeUndefined()
    expect(telegramInbound(update({ sticker: { file_id: 's' } }))?.media).toBeUndefined()
    const broken = telegramInbound(update({ voice: { file_id: 5 } }))
    expect(broken).toMatchObject({ kind: 'voice', text: '[voice note]' })
    expect(broken?.media).toBeUndefined()
  })
})
