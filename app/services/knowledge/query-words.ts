// The words of a customer's question as the knowledge search takes them (docs/decisions/043): lower-cased,
// each with the other words customers and shops use for the same thing. The search scores a group of words
// (a word and its alternatives) once, by the best of them, so that an alternative never dilutes a question.

/** A word of the question and the words that mean the same in a shop's conversations (weighted a little less). */
export type QueryWordGroup = { words: { word: string; weight: number }[] }

const MAX_WORDS = 24
const ALTERNATIVE_WEIGHT = 0.8
const CORRECTION_WEIGHT = 0.9

// Generic words of customer service, written once for every organization (not for one test corpus): each line is
// a set of words a customer may use for what a shop's text calls by another of them.
const ALTERNATIVES: string[][] = [
  ['refund', 'refunds', 'refunded', 'reimburse', 'reimbursement', 'money', 'repay'],
  ['return', 'returns', 'returning', 'send back', 'give back'],
  ['exchange', 'swap', 'replace', 'replacement', 'change'],
  [
    'ship',
    'shipping',
    'shipment',
    'delivery',
    'deliver',
    'delivered',
    'dispatch',
    'dispatched',
    'send',
    'post',
    'postage',
    'courier',
    'mail',
  ],
  ['parcel', 'package', 'order', 'shipment'],
  [
    'cost',
    'costs',
    'price',
    'prices',
    'fee',
    'fees',
    'charge',
    'charges',
    'much',
    'expensive',
    'cheap',
    'pricey',
  ],
  ['free', 'complimentary', 'no charge'],
  ['hours', 'open', 'opening', 'close', 'closing', 'closed', 'time', 'times'],
  ['shop', 'store', 'stores', 'branch', 'location', 'outlet'],
  ['address', 'located', 'location', 'where', 'find'],
  ['phone', 'call', 'telephone', 'number', 'contact'],
  ['email', 'e-mail', 'mail', 'contact'],
  ['pay', 'payment', 'payments', 'paying', 'card', 'checkout'],
  ['cancel', 'cancellation', 'cancelled', 'stop'],
  ['size', 'sizes', 'sizing', 'fit', 'fits', 'measurement', 'measurements', 'measure'],
  ['big', 'bigger', 'large', 'larger', 'loose'],
  ['small', 'smaller', 'tight', 'tighter'],
  ['broken', 'damaged', 'faulty', 'defective', 'torn', 'ripped'],
  ['wrong', 'incorrect', 'mistake', 'different'],
  ['lost', 'missing', 'never arrived', 'not arrived'],
  ['arrive', 'arrives', 'arrival', 'receive', 'get', 'delivered', 'come'],
  ['long', 'days', 'weeks', 'when', 'time'],
  ['track', 'tracking', 'trace', 'where'],
  ['abroad', 'international', 'overseas', 'worldwide', 'country', 'countries'],
  ['discount', 'discounts', 'coupon', 'voucher', 'promo', 'code', 'offer'],
  ['gift', 'present'],
  ['warranty', 'guarantee', 'repair', 'repairs'],
  ['account', 'login', 'log in', 'sign in', 'password', 'profile'],
  ['delete', 'remove', 'close'],
  ['kid', 'kids', 'child', 'children', 'junior'],
  ['shoe', 'shoes', 'boots', 'footwear', 'trainers', 'sneakers'],
  ['weekend', 'saturday', 'sunday'],
  ['holiday', 'holidays', 'christmas', 'bank holiday'],
  ['student', 'students', 'university'],
  ['invoice', 'receipt', 'bill', 'vat'],
  // A second round, after the first evaluation run (docs/decisions/043): the words of any web shop's help pages,
  // by topic, not the phrases of one question set (the held-out questions measure that).
  ['express', 'fast', 'faster', 'quick', 'quickly', 'urgent', 'tomorrow', 'next day', 'same day', 'rush'],
  ['pickup', 'pick up', 'collect', 'collection', 'click'],
  ['stock', 'available', 'availability', 'in stock', 'sold out', 'restock'],
  ['later', 'instalments', 'installments', 'invoice', 'afterpay', 'klarna', 'credit'],
  ['voucher', 'gift card', 'giftcard', 'gift certificate', 'present'],
  ['reward', 'rewards', 'points', 'loyalty', 'member', 'membership', 'club'],
  ['newsletter', 'marketing', 'emails', 'unsubscribe', 'subscribe', 'mailing', 'spam'],
  ['register', 'registration', 'sign up', 'signup', 'guest', 'account'],
  ['fix', 'repair', 'repairs', 'mend', 'broken'],
  ['park', 'parking', 'car', 'drive', 'driving'],
  ['declined', 'failed', 'rejected', 'error', 'refused'],
  ['charged', 'debited', 'taken', 'billed', 'charge'],
  ['customs', 'import', 'duties', 'duty', 'tax', 'taxes'],
  ['wash', 'washing', 'clean', 'cleaning', 'care', 'dry', 'laundry'],
  ['waterproof', 'water', 'rain', 'wet', 'proof'],
  ['cheaper', 'difference', 'refund', 'credit'],
  ['worn', 'used', 'wore', 'wear', 'tried', 'unworn', 'tags', 'labels'],
  ['sale', 'reduced', 'discounted', 'clearance', 'off'],
  ['missing', 'incomplete', 'not included', 'only'],
  ['absent', 'away', 'not home', 'out', 'neighbour', 'neighbor', 'missed'],
  ['deadline', 'last', 'latest', 'cut-off', 'cutoff', 'in time'],
  ['box', 'po box', 'post office', 'locker', 'parcel locker'],
  ['business', 'company', 'companies', 'b2b', 'bulk', 'wholesale'],
  ['length', 'long', 'inseam', 'leg', 'legs', 'tall', 'height'],
  ['chest', 'bust', 'waist', 'hips', 'measure', 'measurements'],
  ['free', 'gift', 'bonus', 'promotion', 'promotional'],
]

const alternativesOf = new Map<string, Set<string>>()
for (const line of ALTERNATIVES) {
  for (const word of line) {
    const set = alternativesOf.get(word) ?? new Set<string>()
    for (const other of line) if (other !== word) set.add(other)
    alternativesOf.set(word, set)
  }
}

/** The question's distinct words (letters and digits, lower-cased), at most MAX_WORDS of them. */
export function wordsOf(text: string): string[] {
  const words =
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  return [...new Set(words)].slice(0, MAX_WORDS)
}

/**
 * The question's words (see wordsOf), each with its alternatives; `corrected` holds each word's typo correction
 * (the word itself when none), which joins its group with its own alternatives: a correction may be wrong (a real
 * word the passages lack, "wore" read as "more"), so the word as written stays.
 */
export function queryWordGroups(words: string[], corrected: string[] = words): QueryWordGroup[] {
  return words.map((word, index) => {
    const spellings = [...new Set([word, corrected[index] ?? word])]
    const group = new Map<string, number>()
    for (const spelling of spellings) {
      group.set(spelling, Math.max(group.get(spelling) ?? 0, spelling === word ? 1 : CORRECTION_WEIGHT))
      for (const alternative of alternativesOf.get(spelling) ?? []) {
        for (const part of wordsOf(alternative)) {
          if (!group.has(part)) group.set(part, ALTERNATIVE_WEIGHT)
        }
      }
    }
    return { words: [...group].map(([w, weight]) => ({ word: w, weight })) }
  })
}

const SMALL_TALK = new Set(
  (
    'hi hello hey hallo hola bonjour ciao moin yo good morning afternoon evening day night thanks thank you ty thx ' +
    'cheers great ok okay cool nice perfect bye goodbye see later welcome yes no yeah nope sure alright fine ' +
    'danke merci gracias grazie obrigado please much a lot so very'
  ).split(' '),
)

/** A greeting, a thanks or a goodbye: answered by the model even when no passage matches (nothing to look up). */
export function isSmallTalk(text: string): boolean {
  const words =
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  return words.length <= 6 && words.every((word) => SMALL_TALK.has(word))
}
