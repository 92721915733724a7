import { languageName } from '~/lib/conversations/contact'

// Answering in the customer's language (issue 36, docs/decisions/071), or in the one the agent is fixed to (072).

/** The line the system prompt ends with when the customer's language is known. */
export function answerLanguageInstruction(language: string): string {
  const name = languageName(language)
  return `## Language\nThe customer writes in ${name}. Answer in ${name}, whatever the language of the instructions and passages above.`
}

/** The line the system prompt ends with when the agent is fixed to one language: the customer's does not matter. */
export function fixedLanguageInstruction(language: string): string {
  const name = languageName(language)
  return `## Language\nAlways answer in ${name}, whatever the language the customer writes in and the language of the instructions and passages above.`
}

/** The prompt's language line: the agent's fixed language, else the customer's when known, else none. */
export function languageInstruction(
  replyLanguage: string | null | undefined,
  customerLanguage: string | null | undefined,
): string | null {
  if (replyLanguage) return fixedLanguageInstruction(replyLanguage)
  return customerLanguage ? answerLanguageInstruction(customerLanguage) : null
}
