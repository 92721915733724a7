import { describe, expect, it } from 'vitest'
import { messengerDelivery, wabaDelivery, whatsappChange } from '../../../tests/fixtures/meta/deliveries'
import { metaEvents, type MetaEvents } from './inbound.server'
import { metaWebhookSchema } from './webhook-payload.server'

const eventsOf = (body: unknown) => metaEvents(metaWebhookSchema.parse(body))
const messageOf = ({ events }: MetaEvents) => {
  expect(events).toHaveLength(1)
  const [event] = events
  if (event.kind !== 'message') throw new Error(`expected a message, got ${event.kind}`)
  return event.message
}

const whatsapp = (message: Record<string, unknown>) =>
  messageOf(
    eventsOf(
      wabaDelivery('waba', [
        whatsappChange('1555010', {
          messages: [{ from: '34911', id: 'wamid.1', timestamp: '1700000000', ...message }],
        }),
      ]),
    ),
  )

describe('metaEvents: the file a WhatsApp message carries', () => {
  it('a voice note: its media id and declared type, pending', () => {
    const message = whatsapp({
      type: 'audio',
      audio: { id: '1234567890', mime_type: 'audio/ogg; codecs=opus', sha256: 'abc', voice: true },
    })
    expect(message).toMatchObject({ kind: 'voice', text: '[voice note]' })
    expect(message.media).toEqual({
      source: 'whatsapp',
      ref: '1234567890',
      contentType: 'audio/ogg; codecs=opus',
      state: 'pending',
    })
  })

  it('a photo with its caption; a document with its name', () => {
    const photo = whatsapp({
      type: 'image',
      image: { id: '111', mime_type: 'image/jpeg', sha256: 'x', caption: ' the broken part ' },
    })
    expect(photo).toMatchObject({ kind: 'photo' })
    expect(photo.media).toEqual({
      source: 'whatsapp',
      ref: '111',
      contentType: 'image/jpeg',
      caption: 'the broken part',
      state: 'pending',
    })
    const file = whatsapp({
      type: 'document',
      document: { id: '222', mime_type: 'application/pdf', filename: 'invoice.pdf', caption: 'my invoice' },
    })
    expect(file).toMatchObject({ kind: 'file' })
    expect(file.media).toEqual({
      source: 'whatsapp',
      ref: '222',
      contentType: 'application/pdf',
      fileName: 'invoice.pdf',
      caption: 'my invoice',
      state: 'pending',
    })
  })

  it('a media object it cannot read is absent: the message is kept, as its label', () => {
    const noId = whatsapp({ type: 'audio', audio: { id: '../../me?fields=x', voice: true } })
    expect(noId).toMatchObject({ kind: 'voice', text: '[voice note]' })
    expect(noId.media).toBeUndefined()
    const broken = whatsapp({ type: 'image', image: 'not an object' })
    expect(broken).toMatchObject({ kind: 'photo' })
    expect(broken.media).toBeUndefined()
    const badCaption = whatsapp({ type: 'document', document: { id: '333', caption: 42 } })
    expect(badCaption).toMatchObject({ kind: 'file' })
    expect(badCaption.media).toBeUndefined()
  })

  it('a text has no file', () => {
    expect(whatsapp({ type: 'text', text: { body: 'hello' } }).media).toBeUndefined()
  })
})

const messenger = (message: Record<string, unknown>) =>
  messageOf(
    eventsOf(
      messengerDelivery('page-1', {
        sender: { id: 'psid-1' },
        recipient: { id: 'page-1' },
        timestamp: 1_700_000_000_000,
        message: { mid: 'm_1', ...message },
      }),
    ),
  )

describe('metaEvents: the file a Messenger message carries', () => {
  const url = 'https://cdn.fbsbx.com/v/t59.3654-21/voice.mp4?_nc_cat=1'

  it("an audio attachment: its URL, pending; only the first attachment's", () => {
    const message = messenger({
      attachments: [
        { type: 'audio', payload: { url } },
        { type: 'image', payload: { url: 'https://scontent.xx.fbcdn.net/v/photo.jpg' } },
      ],
    })
    expect(message).toMatchObject({ kind: 'voice' })
    expect(message.media).toEqual({ source: 'messenger', ref: url, state: 'pending' })
  })

  it('no file for a text, a sticker, or a URL that is not http(s)', () => {
    expect(
      messenger({ text: 'hi', attachments: [{ type: 'audio', payload: { url } }] }).media,
    ).toBeUndefined()
    const sticker = messenger({
      attachments: [{ type: 'image', payload: { url, sticker_id: 369239263222822 } }],
    })
    expect(sticker).toMatchObject({ kind: 'sticker' })
    expect(sticker.media).toBeUndefined()
    const file = messenger({ attachments: [{ type: 'file', payload: { url: 'file:///etc/passwd' } }] })
    expect(file).toMatchObject({ kind: 'file' })
    expect(file.media).toBeUndefined()
  })
})
