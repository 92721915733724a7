import type { FieldMetadata } from '@conform-to/react'
import { Fieldset, Select, Stack, Text, Textarea, VisuallyHidden } from '@mantine/core'
import { useEffect, useRef, useState } from 'react'
import { fieldProps } from '~/components/forms/field-props'
import {
  BUILT_IN_LANGUAGES,
  BUILT_IN_TEXT_KINDS,
  BUILT_IN_TEXTS,
  isBuiltInLanguage,
  type BuiltInLanguage,
  type BuiltInTextKind,
} from '~/lib/agents/built-in-texts'
import { BUILT_IN_TEXT_LABELS, languageLabel } from '~/lib/agents/agent-language'
import { ChoiceField } from './agent-form-fields'
import classes from './agents.module.css'

// The Behaviour tab's Language group (issue 36, docs/decisions/072): the language the agent answers in, and the
// owner's own words for its messages in each language, tucked away in a section most owners never open.

/** The group's values as the form holds them: '' is the customer's language; every language's five boxes. */
export type LanguageFormValues = {
  replyLanguage: string
  translations: Record<BuiltInLanguage, Record<BuiltInTextKind, string>>
}

type Field<T> = FieldMetadata<T, Record<string, unknown>, string[]>
type LanguageFields = { [K in keyof LanguageFormValues]: Field<LanguageFormValues[K]> }
type TranslationFields = ReturnType<LanguageFields['translations']['getFieldset']>

const LANGUAGE_OPTIONS = BUILT_IN_LANGUAGES.map((value) => ({ value, label: languageLabel(value) }))
const ANSWER_IN_OPTIONS = [{ value: '', label: "The customer's language" }, ...LANGUAGE_OPTIONS]

export const LANGUAGE_TEXTS = {
  answerIn: 'Answer in',
  answerInHint:
    'Each customer is answered in the language they write in, unless you pick one language: then the agent always answers in it, and sends its messages in it too.',
  otherLanguages: 'Messages in other languages',
  otherLanguagesHint:
    'Each box shows what the agent sends in that language now: change it to use your own words, or empty it to go back to the suggested message (or to yours above, if you wrote one). A message left empty above is not sent in any language.',
  pickLanguage: 'Messages in',
  pickLanguageHint: 'Pick a language to see and change its messages.',
} as const

const hasErrors = (fieldset: TranslationFields, language: BuiltInLanguage) =>
  Object.values(fieldset[language].allErrors).some((messages) => messages.length > 0)

/** One language's five messages; the other languages' stay in the form, out of sight, so nothing typed is lost. */
function LanguageMessages({
  language,
  field,
  shown,
  hydrated,
  pending,
}: {
  language: BuiltInLanguage
  field: TranslationFields[BuiltInLanguage]
  shown: boolean
  hydrated: boolean
  pending: boolean
}) {
  const boxes = field.getFieldset()
  return (
    <Fieldset
      // Once hydrated the select above shows the language: the legend is then for screen readers only.
      legend={hydrated ? <VisuallyHidden>{languageLabel(language)}</VisuallyHidden> : languageLabel(language)}
      variant="unstyled"
      hidden={!shown}
      data-compact={hydrated || undefined}
      p={0}
      m={0}
      className={classes.languageMessages}
    >
      <Stack gap="sm">
        {BUILT_IN_TEXT_KINDS.map((kind) => (
          <Textarea
            // Conform's key, when it has one, remounts the box on a reset.
            key={`${kind}${boxes[kind].key ?? ''}`}
            {...fieldProps(boxes[kind])}
            // Named with its language, so that no two boxes of the form share a name.
            label={
              <>
                {BUILT_IN_TEXT_LABELS[kind]} <VisuallyHidden>in {languageLabel(language)}</VisuallyHidden>
              </>
            }
            placeholder={BUILT_IN_TEXTS[language][kind]}
            lang={language}
            autosize
            minRows={2}
            maxRows={5}
            disabled={pending}
          />
        ))}
      </Stack>
    </Fieldset>
  )
}

/**
 * "Messages in other languages": a native disclosure (it opens without JavaScript, and by keyboard). Once hydrated
 * a select shows one language at a time; before, every language is listed. A language with an error is shown,
 * and the section opened, so that the error is seen.
 */
function OtherLanguages({
  field,
  hydrated,
  pending,
  initialLanguage,
}: {
  field: LanguageFields['translations']
  hydrated: boolean
  pending: boolean
  initialLanguage: BuiltInLanguage
}) {
  const fieldset = field.getFieldset()
  const invalid = BUILT_IN_LANGUAGES.filter((language) => hasErrors(fieldset, language))
  const [language, setLanguage] = useState(invalid[0] ?? initialLanguage)
  // The disclosure stays the browser's: open in the first HTML when it holds an error (a post without JavaScript),
  // and opened again by the effect below on each new error.
  const [openAtFirst] = useState(invalid.length > 0)
  const [reveals, setReveals] = useState(0)
  const [seen, setSeen] = useState(invalid.join())
  if (invalid.join() !== seen) {
    setSeen(invalid.join())
    if (invalid.length > 0) {
      setReveals(reveals + 1)
      if (!invalid.includes(language)) setLanguage(invalid[0])
    }
  }
  const section = useRef<HTMLDetailsElement>(null)
  useEffect(() => {
    if (reveals > 0 && section.current) section.current.open = true
  }, [reveals])
  return (
    <details ref={section} className={classes.otherLanguages} open={openAtFirst || undefined}>
      <summary>{LANGUAGE_TEXTS.otherLanguages}</summary>
      <Stack gap="sm" pt="xs">
        <Text size="xs" c="gray.7">
          {LANGUAGE_TEXTS.otherLanguagesHint}
        </Text>
        {hydrated ? (
          <Select
            label={LANGUAGE_TEXTS.pickLanguage}
            description={LANGUAGE_TEXTS.pickLanguageHint}
            data={LANGUAGE_OPTIONS}
            value={language}
            onChange={(value) => value && isBuiltInLanguage(value) && setLanguage(value)}
            allowDeselect={false}
            checkIconPosition="right"
            disabled={pending}
          />
        ) : null}
        {BUILT_IN_LANGUAGES.map((each) => (
          <LanguageMessages
            key={each}
            language={each}
            field={fieldset[each]}
            shown={!hydrated || each === language}
            hydrated={hydrated}
            pending={pending}
          />
        ))}
      </Stack>
    </details>
  )
}

/** The Language group: "Answer in", then the messages in other languages. */
export function LanguageFields({
  fields,
  hydrated,
  pending,
}: {
  fields: LanguageFields
  hydrated: boolean
  pending: boolean
}) {
  const answerIn =
    typeof fields.replyLanguage.initialValue === 'string' ? fields.replyLanguage.initialValue : ''
  return (
    <Stack gap="sm">
      <ChoiceField
        key={fields.replyLanguage.key}
        hydrated={hydrated}
        {...fieldProps(fields.replyLanguage)}
        label={LANGUAGE_TEXTS.answerIn}
        description={LANGUAGE_TEXTS.answerInHint}
        data={ANSWER_IN_OPTIONS}
        defaultValue={answerIn}
        disabled={pending}
      />
      <OtherLanguages
        field={fields.translations}
        hydrated={hydrated}
        pending={pending}
        initialLanguage={isBuiltInLanguage(answerIn) ? answerIn : 'es'}
      />
    </Stack>
  )
}
