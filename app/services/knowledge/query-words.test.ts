import { describe, expect, it } from 'vitest'
import { PLACES } from './places'
import { isSmallTalk, queryWordGroups, wordsOf } from './query-words'

/** Each word of the question with the words its group looks up. */
const groupsOf = (question: string) => {
  const words = wordsOf(question)
  return new Map(queryWordGroups(words).map((group, index) => [words[index], group.words.map((w) => w.word)]))
}

describe('the words of a question', () => {
  it('reads a phrasal verb as what it means, also with words inside it, not as its words', () => {
    for (const question of ['can I send them back?', 'Sending back a jacket', 'may I send the boots back']) {
      const groups = groupsOf(question)
      expect(groups.get('send back')).toEqual(expect.arrayContaining(['return', 'returns']))
      // "send" alone is about shipping: it is not looked up here.
      expect([...groups.keys()].some((word) => word?.startsWith('send') && word !== 'send back')).toBe(false)
      expect([...groups.values()].flat()).not.toContain('shipping')
    }
    // Too far apart, the words are words.
    expect(groupsOf('send the red wool jumper back').has('send back')).toBe(false)
  })

  it('keeps the words of a phrase that means its words, and adds what it is also called', () => {
    const groups = groupsOf('Gift card: how much is left?')
    expect(groups.get('gift card')).toEqual(expect.arrayContaining(['voucher', 'giftcard']))
    expect(groups.has('gift')).toBe(true)
    expect(groups.has('card')).toBe(true)
  })

  it("knows the service words of the second list, its phrases as a question writes them, and not 'ring' as a call", () => {
    expect(groupsOf('can I spread the cost over a few months?').get('spread the cost')).toEqual(
      expect.arrayContaining(['instalment', 'installment', 'financing']),
    )
    expect(groupsOf('let me call it off').get('call off')).toEqual(expect.arrayContaining(['cancel']))
    expect(groupsOf("where's my order?").get('where s my order')).toEqual(expect.arrayContaining(['status']))
    expect(groupsOf('colour of the jacket').get('colour')).toEqual(['colour', 'color'])
    expect(groupsOf('do you resize a ring?').get('ring')).toEqual(['ring'])
  })

  it('takes a place for its country, continent and the European Union, one way only', () => {
    expect(groupsOf('do you ship to Brazil?').get('brazil')).toEqual(
      expect.arrayContaining(['brazil', 'south', 'america', 'countries']),
    )
    expect(groupsOf('delivery to vienna').get('vienna')).toEqual(
      expect.arrayContaining(['austria', 'europe', 'eu']),
    )
    expect(groupsOf('shipping to Oslo').get('oslo')).not.toContain('eu')
    expect(groupsOf('do you ship within europe').get('europe')).toEqual(['europe'])
    // A garment, not the island.
    for (const garment of ['jersey', 'guernsey', 'wellington', 'bermuda', 'panama']) {
      expect(PLACES.has(garment), garment).toBe(false)
    }
    expect(groupsOf('is the cycling jersey waterproof').get('jersey')).toEqual(['jersey'])
  })

  it("reads every language's service groups, also without their accents", () => {
    expect(groupsOf('cuanto tarda el envio').get('envio')).toEqual(
      expect.arrayContaining(['envío', 'entrega', 'despacho']),
    )
    expect(groupsOf('Wann habt ihr offen?').get('wann habt ihr offen')).toEqual(
      expect.arrayContaining(['öffnungszeiten']),
    )
  })

  it('drops the chat words of every language, not a word a service group holds', () => {
    expect(wordsOf('Hola, buenas! quería preguntar el horario porfa')).toEqual(['el', 'horario'])
    expect(wordsOf('Moin, bitte die Öffnungszeiten')).toEqual(['die', 'öffnungszeiten'])
    expect(wordsOf('Здравствуйте, подскажите, пожалуйста, график работы')).toEqual([
      'график работы',
      'график',
      'работы',
    ])
    // "plz" is a chat "please" in English and the postcode in German.
    expect(wordsOf('plz')).toEqual(['plz'])
    expect(wordsOf('hi, thanks!')).toEqual([])
  })

  it("weighs a common word a fifth of a topic word, and a phrase's common words are no alternatives (ADR 075)", () => {
    const words = wordsOf('vai chover amanhã?')
    const weights = new Map(
      queryWordGroups(words).map((group, index) => [words[index], group.words[0]!.weight]),
    )
    expect(weights).toEqual(
      new Map([
        ['vai', 0.2],
        ['chover', 1],
        ['amanhã', 0.2],
      ]),
    )
    // "fazer um pedido" is an order; "fazer" alone is not.
    expect(groupsOf('minha encomenda').get('encomenda')).toEqual(expect.arrayContaining(['pedido']))
    expect(groupsOf('minha encomenda').get('encomenda')).not.toContain('fazer')
    // An entry of a service group is not common: "tomorrow" is about next-day delivery.
    const tomorrow = queryWordGroups(['tomorrow'])[0]!.words
    expect(tomorrow[0]).toEqual({ word: 'tomorrow', weight: 1 })
  })

  it('takes a message of greetings, thanks and goodbyes, in any language, for small talk', () => {
    for (const text of ['Hi!', 'thanks a lot', 'good morning', 'Obrigado!', 'Vielen Dank', 'Hola, gracias']) {
      expect(isSmallTalk(text), text).toBe(true)
    }
    expect(isSmallTalk('hi, do you ship to Spain?')).toBe(false)
  })

  it('keeps a decimal number whole, also with a decimal comma', () => {
    expect(wordsOf('my foot is 27.4 cm')).toEqual(['my', 'foot', 'is', '27.4', 'cm'])
    expect(wordsOf('26,5cm or 42, 43?')).toEqual(['26.5', 'cm', 'or', '42', '43'])
  })

  it('counts each word once and keeps at most 24', () => {
    expect(wordsOf('Return, return RETURN')).toEqual(['return'])
    expect(wordsOf(Array.from({ length: 40 }, (_, n) => `w${n}`).join(' '))).toHaveLength(24)
  })
})
