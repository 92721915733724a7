import type { InboundMessage } from '~/integrations/inbound-message'
import openers from './openers.json'

// The language a customer writes in (issue 36, docs/decisions/071), detected by ELD (`eld`, its small n-gram set):
// about 10 µs a message, accurate on a short sentence, and it says when it is not sure (checked again below: it is
// not always right). Greetings and thanks alone are looked up instead. Loaded once per process on first use (about
// 0.3 s and 45 MB); `warmLanguageDetection` starts that at boot.

type Detector = {
  detect(text: string): { language: string; isReliable(): boolean; getScores(): Record<string, number> }
}

let loading: Promise<Detector> | undefined
const detector = () => (loading ??= import('eld/small').then((module) => module.eld))

/** Loads the detector now, so that the first message does not wait for it. */
export function warmLanguageDetection(): void {
  void detector()
}

/** Two letters at least: less says nothing ("👍", "?", "5"). */
const TWO_LETTERS = /\p{L}.*\p{L}/su
/** Links, addresses, handles and anything with a digit (an order number, "ce74ca14") are no language's words. */
const NOT_WORDS = /https?:\/\/\S+|\S+@\S+|[@#]\p{L}\S*|\S*\p{N}\S*/gu
/**
 * The best language must lead the next by this much: "question" is French by 0.003, English next. ELD 2.1 calls
 * such a near tie reliable (its own check compares the best score with the second language's index, not its
 * score). On our language sets' 666 questions, this and the letters below take the wrong answers from 15 to 5 and
 * leave 10 without a language (those keep the conversation's). See docs/decisions/071's addendum.
 */
const MARGIN = 0.005
/**
 * Languages that ELD's n-grams confuse on a short message (Russian read as Ukrainian or Bulgarian in 7 of 98
 * questions), told apart by the letters or words each writes, or never writes.
 */
const NEEDS: Record<string, RegExp> = {
  be: /[ўі]/iu,
  sr: /[јљњћђџ]/iu,
  mk: /[ѓќѕјљњџ]/iu,
  // Hindi and Marathi tie on a short message (4 of 6 Hindi questions): Marathi is taken on its own letter ळ or its
  // words for "is" and "not", else the message is Hindi, the language of far more customers.
  mr: /ळ|आहे|नाही/u,
}
const NEVER: Record<string, RegExp> = {
  // Spanish, Portuguese and Catalan, close in n-grams, write marks the others never do (a name's "ç", as in
  // "Barça", is not one: Spanish writes it there).
  es: /[ãõâêô]/iu,
  pt: /[ñ¿¡]/iu,
  ca: /[ñ¿¡]/iu,
  ru: /[іїєґўјљњћђџѓќѕ]/iu,
  uk: /[ыэёъ]/iu,
  bg: /[ыэёіїєґўјљњћђџѓќѕ]/iu,
  sr: /[йщъыьэюяё]/iu,
  mk: /[йщъыьэюяё]/iu,
}
const writable = (language: string, words: string) =>
  (NEEDS[language]?.test(words) ?? true) && !(NEVER[language]?.test(words) ?? false)
/**
 * ELD's 60 languages have Malay and not Indonesian: it reads every Indonesian message as Malay. The two are written
 * much alike, and Indonesia's customers are far more.
 */
const READ_AS: Record<string, string> = { ms: 'id' }

/**
 * The languages of each greeting and thanks word (openers.json). A conversation mostly begins with one, too short
 * for n-grams: ELD gave none to "Hola" and "Bonjour", Bulgarian to "Здравствуйте", Malay to "Terima kasih".
 */
const OPENER_LANGUAGES = new Map<string, string[]>()
for (const [language, words] of Object.entries(openers)) {
  for (const word of words) OPENER_LANGUAGES.set(word, [...(OPENER_LANGUAGES.get(word) ?? []), language])
}
const MAX_OPENER_WORDS = 4

/** A message's words, lower-cased (Turkish "İ" lower-cases to "i" and a combining dot). */
const tokensOf = (words: string) =>
  words
    .normalize('NFC')
    .toLowerCase()
    .replaceAll('i\u0307', 'i')
    .match(/\p{L}+/gu) ?? []

/** The one language a message of greeting and thanks words only can be in ("Добрий день": Ukrainian), or null. */
function openerLanguage(tokens: string[]): string | null {
  if (tokens.length === 0 || tokens.length > MAX_OPENER_WORDS) return null
  let candidates: string[] | undefined
  for (const token of tokens) {
    const languages = OPENER_LANGUAGES.get(token)
    if (!languages) return null
    candidates = candidates ? candidates.filter((language) => languages.includes(language)) : languages
  }
  return candidates?.length === 1 ? candidates[0]! : null
}

/** Of two languages in a near tie, the one a greeting or thanks of the message is in ("Здравствуйте, сколько…"). */
function greetedIn(tokens: string[], languages: (string | null)[]): string | null {
  const greeted = new Set(tokens.flatMap((token) => OPENER_LANGUAGES.get(token) ?? []))
  const named = languages.filter((language) => language !== null && greeted.has(language))
  return named.length === 1 ? named[0]! : null
}

/** A text's language (null: none is sure), and whether greeting and thanks words alone told it. */
export type DetectedLanguage = { language: string | null; greeting: boolean }

const NONE: DetectedLanguage = { language: null, greeting: false }

/** The text's language when detection is sure of it and no other comes close; else null. */
function languageOf(eld: Detector, text: string): DetectedLanguage {
  const words = text.replace(NOT_WORDS, ' ')
  if (!TWO_LETTERS.test(words)) return NONE
  const tokens = tokensOf(words)
  const opener = openerLanguage(tokens)
  if (opener) return { language: opener, greeting: true }
  const result = eld.detect(words)
  if (!result.language || !result.isReliable()) return NONE
  // The two best, in one pass (a message's scores name up to 60 languages).
  let [best, next]: (string | null)[] = [null, null]
  let [bestScore, nextScore] = [-Infinity, -Infinity]
  for (const [language, score] of Object.entries(result.getScores())) {
    if (score <= nextScore || !writable(language, words)) continue
    if (score > bestScore) [best, bestScore, next, nextScore] = [language, score, best, bestScore]
    else [next, nextScore] = [language, score]
  }
  const language = bestScore - nextScore >= MARGIN ? best : greetedIn(tokens, [best, next])
  return { language: language && (READ_AS[language] ?? language), greeting: false }
}

/**
 * The language (ISO 639-1) of each message's text, when it is text and detection is sure of it; null otherwise
 * (a greeting of two letters, a sticker's label, a number), and the conversation keeps the language it had.
 */
export async function detectLanguages(
  batch: ReadonlyArray<Pick<InboundMessage, 'text' | 'kind'>>,
): Promise<DetectedLanguage[]> {
  const eld = await detector()
  return batch.map(({ text, kind }) => (kind === 'text' ? languageOf(eld, text) : NONE))
}

/** The language (ISO 639-1) of a longer text, a knowledge source's, when detection is sure of it; else null. */
export async function detectTextLanguage(text: string): Promise<string | null> {
  return languageOf(await detector(), text).language
}

/**
 * A conversation's language after its new messages, in order: the one each sentence tells. A greeting or thanks
 * alone names it only while none is known: "Thanks" after Spanish keeps the conversation Spanish, and "Hola" first
 * makes it Spanish. The batch ingest's statement does the same (services/messages/ingest/batch.server.ts).
 */
export function conversationLanguage(current: string | null, detected: DetectedLanguage[]): string | null {
  return detected.reduce<string | null>(
    (language, told) =>
      told.language === null ? language : told.greeting ? (language ?? told.language) : told.language,
    current,
  )
}
