// The agent form's tabs: which fields each holds, and which hold an error.
import { Fieldset, Stack, Tabs, VisuallyHidden } from '@mantine/core'
import { type ReactNode } from 'react'
import classes from './agents.module.css'

/**
 * The first tab holds what an owner must decide (docs/decisions/066): the name, what the agent should do and the
 * model; the numbers few need (Max Tokens, Top P, Top K) wait under Advanced, last.
 */
export const SECTIONS = [
  {
    value: 'basic',
    label: 'Basic Info',
    fields: ['name', 'readableId', 'systemPrompt', 'modelType', 'creativityLevel', 'description'],
  },
  {
    value: 'behaviour',
    label: 'Behaviour',
    fields: [
      'burstWaitSeconds',
      'handoffEnabled',
      'handoffMessage',
      'fallbackMessage',
      'unreadableMessage',
      'officeHours',
      'replyLanguage',
      'translations',
    ],
  },
  {
    value: 'knowledge',
    label: 'Knowledge',
    fields: [
      'knowledgeMode',
      'knowledgeSourceIds',
      'knowledgePassages',
      'knowledgeMinRelevance',
      'knowledgeNoAnswerMessage',
    ],
  },
  { value: 'advanced', label: 'Advanced', fields: ['maxTokens', 'topP', 'topK', 'status'] },
] as const
export type SectionValue = (typeof SECTIONS)[number]['value']

/** The sections holding a field with an error (or one inside it, as "officeHours.days.monday.closes"), in tab order. */
export function sectionsWithErrors(error: Record<string, unknown> | null | undefined): SectionValue[] {
  if (!error) return []
  const invalid = Object.entries(error)
    .filter(([, messages]) => Array.isArray(messages) && messages.length > 0)
    .map(([name]) => name.split('.')[0])
  return SECTIONS.filter((section) => section.fields.some((field) => invalid.includes(field))).map(
    (section) => section.value,
  )
}

export const isSectionValue = (value: string | null): value is SectionValue =>
  SECTIONS.some((section) => section.value === value)

export function Sections({
  hydrated,
  active,
  onChange,
  withErrors,
  panels,
}: {
  hydrated: boolean
  active: SectionValue
  onChange: (value: SectionValue) => void
  withErrors: SectionValue[]
  panels: Record<SectionValue, ReactNode>
}) {
  if (!hydrated) {
    return (
      <Stack gap="md">
        {SECTIONS.map((section) => (
          <Fieldset key={section.value} legend={section.label}>
            <Stack gap="sm">{panels[section.value]}</Stack>
          </Fieldset>
        ))}
      </Stack>
    )
  }
  return (
    // keepMounted (Mantine's default) keeps every field in the form, so a hidden tab's values are posted too.
    <Tabs
      value={active}
      onChange={(value) => isSectionValue(value) && onChange(value)}
      keepMounted
      classNames={{ list: classes.tabList, tab: classes.tab }}
    >
      <Tabs.List grow>
        {SECTIONS.map((section) => {
          const hasError = withErrors.includes(section.value)
          return (
            <Tabs.Tab
              key={section.value}
              value={section.value}
              color={hasError ? 'red' : undefined}
              rightSection={
                hasError ? (
                  <>
                    <span className={classes.errorDot} aria-hidden />
                    <VisuallyHidden>(has errors)</VisuallyHidden>
                  </>
                ) : null
              }
            >
              {section.label}
            </Tabs.Tab>
          )
        })}
      </Tabs.List>
      {SECTIONS.map((section) => (
        <Tabs.Panel
          key={section.value}
          value={section.value}
          pt="md"
          data-section={section.value}
          className={classes.panel}
        >
          <Stack gap="sm">{panels[section.value]}</Stack>
        </Tabs.Panel>
      ))}
    </Tabs>
  )
}
