import { describe, expect, it } from 'vitest'
import { detectLanguages } from './detect.server'

const text = (t: string) => ({ text: t, kind: 'text' as const })

describe('detectLanguages', () => {
  it('names the language of a customer’s sentence, in the languages the businesses on WhatsApp and Telegram write', async () => {
    const samples: [string, string][] = [
      ['Hello, I need help with my order', 'en'],
      ['Hola, quiero saber el precio del envío', 'es'],
      ['Oi, qual o prazo de entrega pra São Paulo?', 'pt'],
      ['Здравствуйте, сколько стоит доставка?', 'ru'],
      ['Wie lange dauert der Versand nach Berlin?', 'de'],
      ['Vous vendez des croissants ?', 'fr'],
      ['Vendete cornetti?', 'it'],
      ['Скільки коштує доставка?', 'uk'],
      ['Kargo ne kadar sürer?', 'tr'],
    ]
    expect(await detectLanguages(samples.map(([t]) => text(t)))).toEqual(
      samples.map(([, language]) => language),
    )
  })

  it('says nothing when it cannot be sure, or there is no text to read', async () => {
    expect(
      await detectLanguages([
        text('Hi!'),
        text('ok'),
        text('👍'),
        text('12345'),
        { text: '[photo] mi pedido llegó roto', kind: 'photo' },
      ]),
    ).toEqual([null, null, null, null, null])
  })
})
