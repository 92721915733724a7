import { z } from 'zod'
import { languageName } from '~/lib/conversations/contact'
import { behaviourText } from './behaviour'
import {
  BUILT_IN_LANGUAGES,
  BUILT_IN_TEXT_KINDS,
  type BuiltInLanguage,
  type BuiltInTextKind,
  type TextTranslations,
} from './built-in-texts'

// The language an agent answers in and the owner's own translations of its built-in messages (issue 36,
// docs/decisions/072): the rules and texts the agent form's Behaviour tab and the API share. Client-safe.

/** A new agent answers in the customer's language, with the built-in translations only. */
export const AGENT_LANGUAGE_DEFAULTS: {
  replyLanguage: BuiltInLanguage | null
  translations: TextTranslations
} = { replyLanguage: null, translations: {} }

/** The built-in messages as the Behaviour and Knowledge tabs name them. */
export const BUILT_IN_TEXT_LABELS: Record<BuiltInTextKind, string> = {
  handoff: 'Handoff message',
  fallback: 'Fallback message',
  unreadable: 'Text-only message',
  'out-of-hours': 'Out-of-hours message',
  'no-knowledge': 'No-answer message',
}

/** How a validation message names each message (as behaviour.ts does for the agent's own). */
const ERROR_LABELS: Record<BuiltInTextKind, string> = {
  handoff: 'The handoff message',
  fallback: 'The fallback message',
  unreadable: 'The "text only" message',
  'out-of-hours': 'The out-of-hours message',
  'no-knowledge': 'The no-answer message',
}

export const AGENT_LANGUAGE_TEXTS = {
  replyLanguageInvalid: `The reply language must be one of: ${BUILT_IN_LANGUAGES.join(', ')} (or none: the customer's language)`,
  translationsInvalid: 'Translations must be an object of languages, each with its messages',
  unknownLanguage: `Translations can only be given for these languages: ${BUILT_IN_LANGUAGES.join(', ')}`,
  unknownMessage: `Only these messages can be translated: ${BUILT_IN_TEXT_KINDS.join(', ')}`,
} as const

/** "Spanish" for "es". */
export const languageLabel = (language: BuiltInLanguage) => languageName(language)

const replyLanguage = z.enum(BUILT_IN_LANGUAGES, { error: AGENT_LANGUAGE_TEXTS.replyLanguageInvalid })

/** One language's messages, each optional: left out, the customer gets what they would without a translation. */
const messagesIn = (language: BuiltInLanguage) =>
  z.strictObject(
    Object.fromEntries(
      BUILT_IN_TEXT_KINDS.map((kind) => [
        kind,
        behaviourText(`${ERROR_LABELS[kind]} in ${languageLabel(language)}`).optional(),
      ]),
    ) as Record<BuiltInTextKind, z.ZodOptional<ReturnType<typeof behaviourText>>>,
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? AGENT_LANGUAGE_TEXTS.unknownMessage
          : AGENT_LANGUAGE_TEXTS.translationsInvalid,
    },
  )

/** `{ es: { handoff: '...' } }`: languages from the list only, the five messages only, each as the agent's own. */
const translations = z.strictObject(
  Object.fromEntries(
    BUILT_IN_LANGUAGES.map((language) => [language, messagesIn(language).optional()]),
  ) as Record<BuiltInLanguage, z.ZodOptional<ReturnType<typeof messagesIn>>>,
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? AGENT_LANGUAGE_TEXTS.unknownLanguage
        : AGENT_LANGUAGE_TEXTS.translationsInvalid,
  },
)

/** What the OpenAPI document says of each field. */
export const LANGUAGE_DESCRIPTIONS = {
  replyLanguage: `The one language the agent answers in, whatever the customer writes (one of: ${BUILT_IN_LANGUAGES.join(', ')}); its built-in messages go out in it too. null: the customer's language, as detected from their messages`,
  translations: `The owner's own words for the built-in messages (${BUILT_IN_TEXT_KINDS.join(', ')}) by language: { "es": { "handoff": "..." } }. A customer in a language gets its translation when there is one; else the built-in default in their language while the agent keeps the English default; else the agent's own text. A message left empty in the agent's settings is sent in no language. An empty text, or one the customer would get anyway, is not stored. On PATCH it replaces all of the agent's translations; {} removes them`,
} as const

const described = <K extends keyof typeof LANGUAGE_DESCRIPTIONS, T extends z.ZodType>(key: K, schema: T) =>
  schema.meta({ description: LANGUAGE_DESCRIPTIONS[key] })

/** POST: a new agent answers in the customer's language, with no translations of its own. */
export const languageWithDefaults = {
  replyLanguage: described('replyLanguage', replyLanguage.nullable().default(null)),
  translations: described('translations', translations.default({})),
}

/** PATCH: left out, unchanged. */
export const languagePatchFields = {
  replyLanguage: described('replyLanguage', replyLanguage.nullable().optional()),
  translations: described('translations', translations.optional()),
}

/** The agent as the API reads it. */
export const languageResponseFields = {
  replyLanguage: described('replyLanguage', z.enum(BUILT_IN_LANGUAGES).nullable()),
  translations: described('translations', translations),
}

/**
 * The Behaviour tab's Language fields as a form posts them: "The customer's language" posts '' (which Conform reads
 * as left out: null), an emptied message box posts '' (no translation). A post that never showed the tab has
 * neither: a new agent answers in the customer's language.
 */
export const languageFormFields = {
  replyLanguage: replyLanguage.nullish().transform((language) => language ?? null),
  translations: translations.optional().transform((given) => given ?? {}),
}
