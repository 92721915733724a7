import { describe, expect, it } from 'vitest'
import { conversationLanguage, detectLanguages } from './detect.server'

const text = (t: string) => ({ text: t, kind: 'text' as const })

/** Each sample's text is read as its language (null: none). */
async function expectLanguages(samples: [string, string | null][]) {
  const detected = await detectLanguages(samples.map(([t]) => text(t)))
  expect(detected.map(({ language }) => language)).toEqual(samples.map(([, language]) => language))
}

describe('detectLanguages', () => {
  it('names the language of a customer’s sentence, in the languages the businesses on WhatsApp and Telegram write', async () => {
    await expectLanguages([
      ['Hello, I need help with my order', 'en'],
      ['Hola, quiero saber el precio del envío', 'es'],
      ['Oi, qual o prazo de entrega pra São Paulo?', 'pt'],
      ['Здравствуйте, сколько стоит доставка?', 'ru'],
      ['Wie lange dauert der Versand nach Berlin?', 'de'],
      ['Vous vendez des croissants ?', 'fr'],
      ['Vendete cornetti?', 'it'],
      ['Скільки коштує доставка?', 'uk'],
      ['Kargo ne kadar sürer?', 'tr'],
    ])
  })

  it('says nothing when it cannot be sure, or there is no text to read', async () => {
    await expectLanguages([
      ['Hi!', null],
      ['ok', null],
      ['👍', null],
      ['12345', null],
    ])
    expect(await detectLanguages([{ text: '[photo] mi pedido llegó roto', kind: 'photo' }])).toEqual([
      { language: null, greeting: false },
    ])
  })

  it('reads only words: an order number or a code beside a short sentence does not change its language', async () => {
    // Without the digits' tokens, ELD read these as French (1 in 80 random codes did so).
    await expectLanguages([
      ['Just a question ce74ca14', 'en'],
      ['Can I talk to a human? 4964ea13', 'en'],
      ['Where is my order 123-456? https://shop.example/track/98ab @northwind', 'en'],
    ])
  })

  it('gives no language when another comes as close: "question" is French and English alike', async () => {
    await expectLanguages([
      ['question', null],
      ['Just a question', 'en'],
    ])
  })

  it('reads Indonesian as Indonesian, and Hindi as Hindi unless Marathi shows', async () => {
    // ELD alone: Malay for the first two (it has no Indonesian); Marathi for the third, and Hindi for the next two by
    // less than 0.005 over Marathi.
    await expectLanguages([
      ['Apakah produk ini masih tersedia?', 'id'],
      ['Berapa ongkos kirim ke Surabaya?', 'id'],
      ['डिलीवरी कब होगी?', 'hi'],
      ['मुझे ऑर्डर करना है', 'hi'],
      ['क्या यह उत्पाद उपलब्ध है?', 'hi'],
      ['माझी ऑर्डर कधी येईल? मला माहित नाही', 'mr'],
    ])
  })

  it('tells Spanish from Portuguese by the marks only one of them writes', async () => {
    await expectLanguages([
      // Else a near tie with Portuguese: no language.
      ['¿Me dais factura?', 'es'],
      // ELD alone: Portuguese. Without it, Spanish and English tie: no language rather than the wrong one.
      ['¿mandáis paquetes a Lisboa?', null],
    ])
  })

  it('tells Russian from Ukrainian and Bulgarian by the letters each writes', async () => {
    // ELD alone read the first three as Ukrainian, Bulgarian (a tie with Russian) and Ukrainian.
    await expectLanguages([
      ['Как записаться на приём?', 'ru'],
      ['Делаете ли вы отбеливание зубов?', 'ru'],
      ['почём пломбочку на зубик поставить?', 'ru'],
      ['Добрий день, коли ви працюєте?', 'uk'],
      // No letter tells it from Russian, and the two tie: no language rather than the wrong one.
      ['Хочу замовити', null],
      ['Колко струва доставката до София?', 'bg'],
    ])
  })

  it('knows the greeting or thanks a conversation begins with, where n-grams have too little to read', async () => {
    // ELD alone: none, none, Bulgarian, Russian, Malay, none.
    await expectLanguages([
      ['Hola!', 'es'],
      ['Bonjour 🙂', 'fr'],
      ['Здравствуйте', 'ru'],
      ['Добрий день', 'uk'],
      ['Terima kasih', 'id'],
      ['Bom dia', 'pt'],
      ['Buenos días', 'es'],
      ['İyi günler', 'tr'],
      // A word of more than one language's greetings alone ("hi") or a word of none ("ok") says nothing.
      ['Hi', null],
      ['ok', null],
    ])
  })
})

describe('conversationLanguage', () => {
  it('follows what sentences tell; a greeting or thanks alone names the language only while none is known', async () => {
    const told = async (...texts: string[]) => detectLanguages(texts.map(text))
    // "Thanks" after Spanish: still Spanish; a Spanish sentence after English greetings: Spanish.
    expect(conversationLanguage('es', await told('Thanks'))).toBe('es')
    expect(conversationLanguage(null, await told('¿Cuánto cuesta el envío a Valencia?', 'Thanks'))).toBe('es')
    expect(conversationLanguage('en', await told('Hello', '¿Cuánto cuesta el envío a Valencia?'))).toBe('es')
    // A first greeting names it, and a second one in another language does not switch it.
    expect(conversationLanguage(null, await told('Hola'))).toBe('es')
    expect(conversationLanguage(null, await told('Hola', 'Thanks'))).toBe('es')
    // A sentence in another language does; a message that tells nothing keeps it.
    expect(conversationLanguage('es', await told('Where is my parcel?'))).toBe('en')
    expect(conversationLanguage('es', await told('ok', '👍'))).toBe('es')
  })
})
