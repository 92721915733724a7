import type { InboundMessage } from '~/integrations/inbound-message'

// The language a customer writes in (issue 36, docs/decisions/071), detected by ELD (`eld`, its small n-gram set):
// about 10 µs a message, accurate on a short sentence, and it says when it is not sure. Loaded once per process
// on first use (about 0.3 s and 45 MB); `warmLanguageDetection` starts that at boot.

type Detector = { detect(text: string): { language: string; isReliable(): boolean } }

let loading: Promise<Detector> | undefined
const detector = () => (loading ??= import('eld/small').then((module) => module.eld))

/** Loads the detector now, so that the first message does not wait for it. */
export function warmLanguageDetection(): void {
  void detector()
}

/** Two letters at least: less says nothing ("👍", "?", "5"). */
const TWO_LETTERS = /\p{L}.*\p{L}/su

/**
 * The language (ISO 639-1) of each message's text, when it is text and detection is sure of it; null otherwise
 * (a greeting of two letters, a sticker's label, a number), and the conversation keeps the language it had.
 */
export async function detectLanguages(
  batch: ReadonlyArray<Pick<InboundMessage, 'text' | 'kind'>>,
): Promise<(string | null)[]> {
  const eld = await detector()
  return batch.map(({ text, kind }) => {
    if (kind !== 'text' || !TWO_LETTERS.test(text)) return null
    const result = eld.detect(text)
    return result.language && result.isReliable() ? result.language : null
  })
}

/** The language (ISO 639-1) of a longer text, a knowledge source's, when detection is sure of it; else null. */
export async function detectTextLanguage(text: string): Promise<string | null> {
  if (!TWO_LETTERS.test(text)) return null
  const result = (await detector()).detect(text)
  return result.language && result.isReliable() ? result.language : null
}
