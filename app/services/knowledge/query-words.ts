import { PLACES } from './places'
import { CHAT_WORDS, COMMON_WORDS, SERVICE_GROUPS, SMALL_TALK_WORDS } from './word-lists'

// The words of a customer's question as the knowledge search takes them (docs/decisions/043): lower-cased,
// each with the other words customers and businesses use for the same thing. The search scores a group of words
// (a word and its alternatives) once, by the best of them, so that an alternative never dilutes a question.

/** A word of the question and the words that mean the same in a shop's conversations (weighted a little less). */
export type QueryWordGroup = { words: { word: string; weight: number }[] }

const MAX_WORDS = 24
const ALTERNATIVE_WEIGHT = 0.8
const CORRECTION_WEIGHT = 0.9
/** What a common word ("get", "today", "vai", "можно") weighs, times its rarity, beside a word that names a topic. */
const COMMON_WEIGHT = 0.2

/**
 * Each word's alternatives, and the multi-word entries ("send back", "gift card") as their words, by the first
 * letters of their first word (wordsOf looks a question's word up there, not in every phrase).
 */
export type Thesaurus = { alternativesOf: Map<string, Set<string>>; phrasesByStart: Map<string, string[][]> }

/**
 * Each entry of the groups read as a question's words are ("where's my order": where s my order; "Móvil": móvil),
 * with its spelling without accents too ("movil", "gross" for "groß"): customers often leave them out.
 */
const readGroups = (groups: string[][]) =>
  groups.map((group) => [
    ...new Set(
      group.flatMap((entry) => {
        const words = tokensOf(entry).join(' ')
        return words ? [words, withoutAccents(words)] : []
      }),
    ),
  ])

function addGroups(alternativesOf: Map<string, Set<string>>, groups: string[][]) {
  for (const group of groups) {
    for (const word of group) {
      const set = new Set(alternativesOf.get(word))
      for (const other of group) if (other !== word) set.add(other)
      alternativesOf.set(word, set)
    }
  }
}

const PHRASE_START = 4
const startOf = (word: string) => word.slice(0, PHRASE_START)

function thesaurusOf(alternativesOf: Map<string, Set<string>>): Thesaurus {
  const phrasesByStart = new Map<string, string[][]>()
  for (const entry of alternativesOf.keys()) {
    if (!isPhrase(entry)) continue
    const phrase = entry.split(' ')
    const start = startOf(phrase[0]!)
    const phrases = phrasesByStart.get(start)
    if (phrases) phrases.push(phrase)
    else phrasesByStart.set(start, [phrase])
  }
  return { alternativesOf, phrasesByStart }
}

const builtInAlternatives = new Map<string, Set<string>>()
addGroups(builtInAlternatives, readGroups(SERVICE_GROUPS))
// A place names its region one way only: "brazil" is about South America, "europe" is not about Austria.
for (const [place, region] of PLACES) {
  builtInAlternatives.set(place, new Set([...(builtInAlternatives.get(place) ?? []), ...region]))
}
const BUILT_IN = thesaurusOf(builtInAlternatives)

/**
 * The built-in lists with an organization's own groups of words (issue 36, "words your customers use"), in any
 * language, read as the built-in ones are.
 */
export function thesaurusWith(customerWords: string[][]): Thesaurus {
  if (customerWords.length === 0) return BUILT_IN
  // Built once per set of words, not per search: copying the built-in lists costs more than the lookups.
  const key = JSON.stringify(customerWords)
  const known = thesauri.get(key)
  if (known) return known
  const alternativesOf = new Map(BUILT_IN.alternativesOf)
  addGroups(alternativesOf, readGroups(customerWords))
  const thesaurus = thesaurusOf(alternativesOf)
  if (thesauri.size >= MAX_THESAURI) thesauri.delete(thesauri.keys().next().value!)
  thesauri.set(key, thesaurus)
  return thesaurus
}

/** The organizations' thesauri last built, by their words (the oldest goes first). */
const MAX_THESAURI = 100
const thesauri = new Map<string, Thesaurus>()

/**
 * A word without its accents (Latin letters' marks, ё as е; not й, another letter), ß as ss, as a question may
 * write it.
 */
function withoutAccents(word: string) {
  return word
    .normalize('NFD')
    .replace(/(?<![иИ])\p{Mn}/gu, '')
    .normalize('NFC')
    .replaceAll('ß', 'ss')
}

/**
 * The words of every language's chat lists (greetings, thanks, "could you"), without their accents. A word that is
 * an entry of a service group too ("plz", a postcode in German) is not one of them.
 */
const CHAT = new Set(CHAT_WORDS.map(withoutAccents).filter((word) => !builtInAlternatives.has(word)))
const SMALL_TALK = new Set([...CHAT, ...SMALL_TALK_WORDS])
/** The common words of every language, without their accents; an entry of a service group is not one of them. */
const COMMON = new Set(COMMON_WORDS.map(withoutAccents).filter((word) => !builtInAlternatives.has(word)))

const inCommonList = (word: string) => COMMON.has(withoutAccents(word))
const isCommon = (thesaurus: Thesaurus, word: string) =>
  inCommonList(word) && !thesaurus.alternativesOf.has(word)

/**
 * A word of the lists (a service group's, an organization's, a common word): a word as it is written, never a typo
 * to correct into a word of the passages ("votar" is not "voltar").
 */
export const isKnownWord = (thesaurus: Thesaurus, word: string) =>
  thesaurus.alternativesOf.has(word) || inCommonList(word)

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
 * The question's distinct words (letters and digits, lower-cased), at most MAX_WORDS of them, without the chat words
 * (greetings, thanks, "could you"): they say nothing of what the question is about. A phrase of the lists found in
 * the question ("gift card", "send back", also "send them back") is a word of its own, looked up by the phrase's
 * alternatives; its own words stay too, except, in a phrasal verb, a word the list gives another meaning: "send" is
 * about shipping, "send back" about returns.
 */
export function wordsOf(text: string, thesaurus: Thesaurus = BUILT_IN): string[] {
  const tokens = tokensOf(text)
  const words: string[] = []
  const add = (word: string) => {
    if (!CHAT.has(withoutAccents(word))) words.push(word)
  }
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!
    const match = (thesaurus.phrasesByStart.get(startOf(token)) ?? [])
      .map((phrase) => ({ phrase, end: phraseAt(tokens, index, phrase) }))
      .find((candidate) => candidate.end !== null)
    if (!match) {
      add(token)
      continue
    }
    const phrase = match.phrase.join(' ')
    const verb = isPhrasalVerb(phrase)
    words.push(phrase)
    for (const inside of tokens.slice(index, match.end! + 1)) {
      const own = match.phrase.find((word) => inside === word) ?? (inside === token ? match.phrase[0] : null)
      if (!(verb && own && meansOtherwise(thesaurus, own, phrase))) add(inside)
    }
    index = match.end!
  }
  return [...new Set(words)].slice(0, MAX_WORDS)
}

/** A phrase of the list, found in a question by wordsOf: looked up by its alternatives, not as a word. */
export function isPhrase(word: string) {
  return word.includes(' ')
}
const isPhrasalVerb = (phrase: string) => PARTICLES.has(phrase.slice(phrase.lastIndexOf(' ') + 1))
/** The list gives a phrase's word a meaning other than the phrase's: a line of its own, without the phrase. */
const meansOtherwise = (thesaurus: Thesaurus, word: string, phrase: string) =>
  thesaurus.alternativesOf.get(word)?.has(phrase) === false

/**
 * An alternative's words: a phrasal verb's are not its meaning (left out), another phrase's are, but for its chat and
 * common words ("fazer um pedido" is an order; "fazer" alone is not).
 */
const partsOf = (alternative: string) =>
  !isPhrase(alternative)
    ? [alternative]
    : isPhrasalVerb(alternative)
      ? []
      : alternative.split(' ').filter((part) => !inCommonList(part) && !CHAT.has(withoutAccents(part)))

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
    const scale = isCommon(thesaurus, word) ? COMMON_WEIGHT : 1
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
    return { words: [...group].map(([w, weight]) => ({ word: w, weight: weight * scale })) }
  })
}

/** A greeting, a thanks or a goodbye: answered by the model even when no passage matches (nothing to look up). */
export function isSmallTalk(text: string): boolean {
  const words = tokensOf(text)
  return words.length <= 6 && words.every((word) => SMALL_TALK.has(withoutAccents(word)))
}
