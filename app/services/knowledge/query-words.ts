import { PLACES } from './places'
import SHOP_WORDS from './words/en-shop.json'
import SERVICE_WORDS_DATA from './words/en-service.json'

// The words of a customer's question as the knowledge search takes them (docs/decisions/043): lower-cased,
// each with the other words customers and shops use for the same thing. The search scores a group of words
// (a word and its alternatives) once, by the best of them, so that an alternative never dilutes a question.

/** A word of the question and the words that mean the same in a shop's conversations (weighted a little less). */
export type QueryWordGroup = { words: { word: string; weight: number }[] }

const MAX_WORDS = 24
const ALTERNATIVE_WEIGHT = 0.8
const CORRECTION_WEIGHT = 0.9

// Generic words of customer service, in data files (words/README.md): each line a set of words a customer may use
// for what a shop's text calls by another of them, "|" between them.
const ALTERNATIVES = SHOP_WORDS.map((line) => line.split('|'))

/** Each word's alternatives, and the multi-word entries ("send back", "gift card") as their words. */
export type Thesaurus = { alternativesOf: Map<string, Set<string>>; phrases: string[][] }

function addGroups(alternativesOf: Map<string, Set<string>>, lines: string[][]) {
  for (const line of lines) {
    for (const word of line) {
      const set = new Set(alternativesOf.get(word))
      for (const other of line) if (other !== word) set.add(other)
      alternativesOf.set(word, set)
    }
  }
}

const phrasesOf = (alternativesOf: Map<string, Set<string>>) =>
  [...alternativesOf.keys()].filter((entry) => entry.includes(' ')).map((entry) => entry.split(' '))

const builtInAlternatives = new Map<string, Set<string>>()
// The second list's entries as a question's words read them ("where's my order": where s my order), so that its
// phrases can be found in a question.
addGroups(builtInAlternatives, [
  ...ALTERNATIVES,
  ...SERVICE_WORDS_DATA.map((line) => line.split('|').map((entry) => tokensOf(entry).join(' '))),
])
// A place names its region one way only: "brazil" is about South America, "europe" is not about Austria.
for (const [place, region] of PLACES) {
  builtInAlternatives.set(place, new Set([...(builtInAlternatives.get(place) ?? []), ...region]))
}
const BUILT_IN: Thesaurus = { alternativesOf: builtInAlternatives, phrases: phrasesOf(builtInAlternatives) }

/**
 * The built-in lists with an organization's own groups of words (issue 36, "words your customers use"), in any
 * language: each entry read as a question's words are, so that "Móvil" in a group meets "movil" in a question too.
 */
export function thesaurusWith(customerWords: string[][]): Thesaurus {
  if (customerWords.length === 0) return BUILT_IN
  // Built once per set of words, not per search: copying the built-in lists costs more than the lookups.
  const key = JSON.stringify(customerWords)
  const known = thesauri.get(key)
  if (known) return known
  const thesaurus = buildThesaurus(customerWords)
  if (thesauri.size >= MAX_THESAURI) thesauri.delete(thesauri.keys().next().value!)
  thesauri.set(key, thesaurus)
  return thesaurus
}

/** The organizations' thesauri last built, by their words (the oldest goes first). */
const MAX_THESAURI = 100
const thesauri = new Map<string, Thesaurus>()

function buildThesaurus(customerWords: string[][]): Thesaurus {
  const alternativesOf = new Map(BUILT_IN.alternativesOf)
  const groups = customerWords.map((group) => [
    ...new Set(group.map((entry) => tokensOf(entry).join(' ')).filter(Boolean)),
  ])
  addGroups(alternativesOf, groups)
  return { alternativesOf, phrases: phrasesOf(alternativesOf) }
}

/** A phrase ending in one of these may have up to two words inside it: "send them back", "pick it up". */
const PARTICLES = new Set(['back', 'up', 'off', 'out', 'in'])
const MAX_INSIDE = 2

/**
 * The lower-cased words (letters and digits) of a text, in order. A decimal number is one word, as the passages'
 * index holds it ("27.4"; "26,5" is read as 26.5): split at its point, it would find neither half.
 */
function tokensOf(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/(\p{N}),(\p{N})(?!\p{N})/gu, '$1.$2')
      .match(/\p{N}+(?:\.\p{N}+)+|[\p{L}\p{N}]+/gu) ?? []
  )
}

/** Where `phrase` starts and ends in `tokens` at `start`, or null. Its first word may take an ending ("sending"). */
function phraseAt(tokens: string[], start: number, phrase: string[]): number | null {
  const [first, ...rest] = phrase
  const token = tokens[start]
  if (!first || !token || !(token === first || (first.length >= 4 && token.startsWith(first)))) return null
  const inside = rest.length === 1 && PARTICLES.has(rest[0]!) ? MAX_INSIDE : 0
  let at = start
  for (const [index, word] of rest.entries()) {
    const limit = Math.min(tokens.length - 1, at + 1 + (index === rest.length - 1 ? inside : 0))
    let found = -1
    for (let next = at + 1; next <= limit; next += 1) {
      if (tokens[next] === word) {
        found = next
        break
      }
    }
    if (found < 0) return null
    at = found
  }
  return at
}

/**
 * The question's distinct words (letters and digits, lower-cased), at most MAX_WORDS of them. A phrase of the list
 * found in the question ("gift card", "send back", also "send them back") is a word of its own, looked up by the
 * phrase's alternatives; its own words stay too, except, in a phrasal verb, a word the list gives another meaning:
 * "send" is about shipping, "send back" about returns.
 */
export function wordsOf(text: string, thesaurus: Thesaurus = BUILT_IN): string[] {
  const tokens = tokensOf(text)
  const words: string[] = []
  for (let index = 0; index < tokens.length; index += 1) {
    const match = thesaurus.phrases
      .map((phrase) => ({ phrase, end: phraseAt(tokens, index, phrase) }))
      .find((candidate) => candidate.end !== null)
    if (!match) {
      words.push(tokens[index]!)
      continue
    }
    const phrase = match.phrase.join(' ')
    const verb = isPhrasalVerb(phrase)
    words.push(phrase)
    for (const token of tokens.slice(index, match.end! + 1)) {
      const own =
        match.phrase.find((word) => token === word) ?? (token === tokens[index] ? match.phrase[0] : null)
      if (!(verb && own && meansOtherwise(thesaurus, own, phrase))) words.push(token)
    }
    index = match.end!
  }
  return [...new Set(words)].slice(0, MAX_WORDS)
}

/** A phrase of the list, found in a question by wordsOf: looked up by its alternatives, not as a word. */
export const isPhrase = (word: string) => word.includes(' ')
const isPhrasalVerb = (phrase: string) => PARTICLES.has(phrase.slice(phrase.lastIndexOf(' ') + 1))
/** The list gives a phrase's word a meaning other than the phrase's: a line of its own, without the phrase. */
const meansOtherwise = (thesaurus: Thesaurus, word: string, phrase: string) =>
  thesaurus.alternativesOf.get(word)?.has(phrase) === false

/** An alternative's words: a phrasal verb's are not its meaning (left out), another phrase's are. */
const partsOf = (alternative: string) =>
  !isPhrase(alternative) ? [alternative] : isPhrasalVerb(alternative) ? [] : alternative.split(' ')

/**
 * The question's words (see wordsOf), each with its alternatives; `corrected` holds each word's typo correction
 * (the word itself when none), which joins its group with its own alternatives: a correction may be wrong (a real
 * word the passages lack, "wore" read as "more"), so the word as written stays. A phrasal verb's group is its
 * alternatives at full weight ("send back": return); another phrase's, at an alternative's (its words are there).
 */
export function queryWordGroups(
  words: string[],
  corrected: string[] = words,
  thesaurus: Thesaurus = BUILT_IN,
): QueryWordGroup[] {
  return words.map((word, index) => {
    const spellings = [...new Set([word, corrected[index] ?? word])]
    const group = new Map<string, number>()
    for (const spelling of spellings) {
      if (!isPhrase(spelling)) {
        group.set(spelling, Math.max(group.get(spelling) ?? 0, spelling === word ? 1 : CORRECTION_WEIGHT))
      }
      const weight = isPhrase(spelling) && isPhrasalVerb(spelling) ? 1 : ALTERNATIVE_WEIGHT
      for (const alternative of thesaurus.alternativesOf.get(spelling) ?? []) {
        for (const part of partsOf(alternative)) {
          if (!group.has(part)) group.set(part, weight)
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
  const words = tokensOf(text)
  return words.length <= 6 && words.every((word) => SMALL_TALK.has(word))
}
