import { languageName } from '~/lib/conversations/contact'

// Answering in the customer's language (issue 36, docs/decisions/071).

/** The line the system prompt ends with when the customer's language is known. */
export function answerLanguageInstruction(language: string): string {
  const name = languageName(language)
  return `## Language\nThe customer writes in ${name}. Answer in ${name}, whatever the language of the instructions and passages above.`
}
