import { BEHAVIOUR_TEXTS } from './behaviour'
import {
  BUILT_IN_LANGUAGES,
  BUILT_IN_TEXT_KINDS,
  textInLanguage,
  type BuiltInLanguage,
  type BuiltInTextKind,
  type TextTranslations,
} from './built-in-texts'

// The owner's translations of the built-in messages (issue 36, docs/decisions/072): what the agent form shows in
// each language's boxes, and what a save keeps of them. Pure and client-safe: the form, the API and the services
// agree on one rule.

/** Where an agent keeps its own (usually English) text of each built-in message. */
export type AgentMessages = {
  handoffMessage: string
  fallbackMessage: string
  unreadableMessage: string
  /** Without office hours the out-of-hours message is the default one (shown, never sent). */
  officeHours: { message: string } | null
  knowledgeNoAnswerMessage: string
}

export type AgentMessagesAndTranslations = AgentMessages & { translations: TextTranslations }

export function ownTexts(agent: AgentMessages): Record<BuiltInTextKind, string> {
  return {
    handoff: agent.handoffMessage,
    fallback: agent.fallbackMessage,
    unreadable: agent.unreadableMessage,
    'out-of-hours': agent.officeHours?.message ?? BEHAVIOUR_TEXTS.outOfHoursMessage,
    'no-knowledge': agent.knowledgeNoAnswerMessage,
  }
}

/** The text a customer in `language` would get if the owner had written no translation of this message. */
const withoutTranslation = (kind: BuiltInTextKind, own: string, language: BuiltInLanguage) =>
  textInLanguage(kind, own, {}, language).trim()

/**
 * The form's box for one message in one language: the owner's translation, else what the customer gets without
 * one (so an untouched form changes nothing). A translation of a message emptied above is still shown: it is kept
 * for when the message is switched back on.
 */
export function shownTranslation(
  agent: AgentMessagesAndTranslations,
  language: BuiltInLanguage,
  kind: BuiltInTextKind,
): string {
  return (
    agent.translations[language]?.[kind]?.trim() || withoutTranslation(kind, ownTexts(agent)[kind], language)
  )
}

/** Every language's boxes as the form starts with them. */
export function shownTranslations(agent: AgentMessagesAndTranslations) {
  return Object.fromEntries(
    BUILT_IN_LANGUAGES.map((language) => [
      language,
      Object.fromEntries(BUILT_IN_TEXT_KINDS.map((kind) => [kind, shownTranslation(agent, language, kind)])),
    ]),
  ) as Record<BuiltInLanguage, Record<BuiltInTextKind, string>>
}

/**
 * What a save keeps of the translations given: each that differs from what the customer would get without it
 * (with the agent's texts as saved), trimmed; an empty one is none. `shown`: the agent the form's boxes were
 * filled from. A box left as it was filled, where there was no translation, is no choice of the owner's: it is not
 * kept, so that it follows the agent's own text when that changed in the same save.
 */
export function translationsToStore(
  given: TextTranslations,
  saved: AgentMessages,
  shown?: AgentMessagesAndTranslations,
): TextTranslations {
  const own = ownTexts(saved)
  const stored: TextTranslations = {}
  for (const language of BUILT_IN_LANGUAGES) {
    for (const kind of BUILT_IN_TEXT_KINDS) {
      const text = given[language]?.[kind]?.trim()
      if (!text || text === withoutTranslation(kind, own[kind], language)) continue
      const untouched =
        shown && !shown.translations[language]?.[kind] && text === shownTranslation(shown, language, kind)
      if (untouched) continue
      stored[language] = { ...stored[language], [kind]: text }
    }
  }
  return stored
}
