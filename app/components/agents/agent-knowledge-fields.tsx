import type { FieldMetadata } from '@conform-to/react'
import {
  Anchor,
  Checkbox,
  Collapse,
  Group,
  Input,
  NumberInput,
  Radio,
  Slider,
  Stack,
  Text,
  Textarea,
} from '@mantine/core'
import { Link } from '@remix-run/react'
import { useId, useState } from 'react'
import { fieldProps } from '~/components/forms/field-props'
import {
  KNOWLEDGE_FORM_MARKER,
  KNOWLEDGE_RELEVANCE_STEP,
  MAX_KNOWLEDGE_NO_ANSWER_LENGTH,
  relevancePercent,
} from '~/lib/agents/knowledge'
import {
  AGENT_KNOWLEDGE_MODES,
  AGENT_KNOWLEDGE_MODE_LABELS,
  KNOWLEDGE_LIMITS,
  KNOWLEDGE_SOURCE_KIND_LABELS,
  type AgentKnowledgeMode,
} from '~/lib/knowledge/knowledge'
import { BehaviourGroup } from './agent-behaviour-fields'
import classes from './agents.module.css'
import { KNOWLEDGE_PATH } from './paths'
import type { KnowledgeSourceOption } from './types'

/** The Knowledge tab's values as the form holds them. */
export type KnowledgeFormValues = {
  knowledgeMode: string
  knowledgeSourceIds: string[]
  knowledgePassages: number
  knowledgeMinRelevance: number
  knowledgeNoAnswerMessage: string
}

type Field<T> = FieldMetadata<T, Record<string, unknown>, string[]>
type KnowledgeFields = { [K in keyof KnowledgeFormValues]: Field<KnowledgeFormValues[K]> }

const STATUS_TEXTS = { processing: 'Processing', ready: 'Ready', failed: 'Failed' } as const

const isMode = (value: unknown): value is AgentKnowledgeMode =>
  AGENT_KNOWLEDGE_MODES.some((mode) => mode === value)

/** The ids a post or the agent carries: one box ticked posts a string, several an array. */
function idsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []
}

/** The sources to choose from, each a checkbox that posts its id (without JavaScript too). */
function SourceList({
  field,
  sources,
  disabled,
}: {
  field: Field<string[]>
  sources: KnowledgeSourceOption[]
  disabled: boolean
}) {
  const labelId = useId()
  const errorId = useId()
  const error = field.errors?.[0] ?? Object.values(field.allErrors).flat()[0]
  if (sources.length === 0) {
    return (
      <Stack gap={4} className={classes.emptyKnowledge}>
        <Text size="sm" fw={600}>
          No knowledge yet
        </Text>
        <Text size="sm">
          Add FAQs, texts, files or web pages on the{' '}
          <Anchor component={Link} to={KNOWLEDGE_PATH}>
            Knowledge
          </Anchor>{' '}
          page, then choose them here.
        </Text>
        {error ? (
          <Input.Error id={errorId} role="alert">
            {error}
          </Input.Error>
        ) : null}
      </Stack>
    )
  }
  const checked = new Set(idsOf(field.initialValue))
  return (
    <div
      role="group"
      aria-labelledby={labelId}
      aria-describedby={error ? errorId : undefined}
      className={classes.sourceList}
      data-invalid={error ? true : undefined}
    >
      <Text size="sm" fw={500} id={labelId}>
        Sources
      </Text>
      <Stack gap={6} mt={6}>
        {sources.map((source, index) => (
          <Checkbox
            key={source.id}
            // The first box carries the field's id, so that a "select one" error can take the focus there.
            id={index === 0 ? field.id : undefined}
            name={field.name}
            value={source.id}
            defaultChecked={checked.has(source.id)}
            aria-invalid={error ? true : undefined}
            disabled={disabled}
            label={<span className={classes.sourceTitle}>{source.title}</span>}
            description={`${KNOWLEDGE_SOURCE_KIND_LABELS[source.kind]} · ${STATUS_TEXTS[source.status]}`}
          />
        ))}
      </Stack>
      {error ? (
        <Input.Error id={errorId} mt={6}>
          {error}
        </Input.Error>
      ) : null}
    </div>
  )
}

/** Minimum relevance: a percentage slider once hydrated; before, a number box of the same name (0 to 1). */
function RelevanceField({
  hydrated,
  field,
  disabled,
}: {
  hydrated: boolean
  field: Field<number>
  disabled: boolean
}) {
  const initial = Number(field.initialValue)
  const [value, setValue] = useState(Number.isFinite(initial) ? initial : 0)
  const errorId = useId()
  const error = field.errors?.[0]
  const description =
    "Passages that hold less of the question's words are not given to the agent. Higher is stricter: more questions get the no-answer message."
  if (!hydrated) {
    return (
      <NumberInput
        {...fieldProps(field)}
        hideControls
        label="Minimum relevance"
        description={`${description} From 0 to 1, in steps of ${KNOWLEDGE_RELEVANCE_STEP}.`}
        min={0}
        max={1}
        step={KNOWLEDGE_RELEVANCE_STEP}
        disabled={disabled}
      />
    )
  }
  return (
    <Stack gap={6} pb="lg">
      <Group justify="space-between" wrap="nowrap">
        <Input.Label htmlFor={field.id}>Minimum relevance</Input.Label>
        <Text size="sm" fw={600} aria-hidden>
          {relevancePercent(value)}
        </Text>
      </Group>
      <Text size="xs" c="dimmed" mt={-4}>
        {description}
      </Text>
      <Slider
        mx="xl"
        name={field.name}
        min={0}
        max={1}
        step={KNOWLEDGE_RELEVANCE_STEP}
        value={value}
        onChange={setValue}
        disabled={disabled}
        label={relevancePercent}
        thumbLabel="Minimum relevance"
        thumbProps={{
          id: field.id,
          'aria-valuetext': relevancePercent(value),
          'aria-describedby': error ? errorId : undefined,
          'aria-invalid': error ? true : undefined,
        }}
        marks={[
          { value: 0, label: '0%' },
          { value: 0.5, label: '50%' },
          { value: 1, label: '100%' },
        ]}
        color={error ? 'red' : undefined}
      />
      {error ? (
        <Input.Error id={errorId} mt="md">
          {error}
        </Input.Error>
      ) : null}
    </Stack>
  )
}

/**
 * The Knowledge tab (issue #18): what the agent answers from, how many passages its prompt carries, how relevant
 * they must be, and what it says when none is. Every field posts without JavaScript.
 */
export function KnowledgeFields({
  fields,
  sources,
  hydrated,
  pending,
}: {
  fields: KnowledgeFields
  /** The organization's knowledge sources. */
  sources: KnowledgeSourceOption[]
  hydrated: boolean
  pending: boolean
}) {
  const initialMode = fields.knowledgeMode.initialValue
  const [mode, setMode] = useState<AgentKnowledgeMode>(isMode(initialMode) ? initialMode : 'all')
  const input = (field: Parameters<typeof fieldProps>[0]) => ({ ...fieldProps(field), disabled: pending })
  const hasError = [
    fields.knowledgePassages,
    fields.knowledgeMinRelevance,
    fields.knowledgeNoAnswerMessage,
  ].some((field) => Boolean(field.errors?.length))
  // With "None" the settings stay in the form (and are kept) but out of sight, unless one of them is wrong.
  const uses = !hydrated || mode !== 'none' || hasError
  return (
    <>
      <input type="hidden" name={KNOWLEDGE_FORM_MARKER} value="true" />
      <Radio.Group
        key={fields.knowledgeMode.key}
        id={fields.knowledgeMode.id}
        name={fields.knowledgeMode.name}
        label="Answer from"
        description="The agent answers only from the passages that match the customer's question, and its system prompt."
        value={mode}
        onChange={(value) => isMode(value) && setMode(value)}
        error={fields.knowledgeMode.errors?.[0]}
      >
        <Stack gap={6} mt={6}>
          {AGENT_KNOWLEDGE_MODES.map((value) => (
            <Radio key={value} value={value} label={AGENT_KNOWLEDGE_MODE_LABELS[value]} disabled={pending} />
          ))}
        </Stack>
      </Radio.Group>
      {/* Hidden but kept in the form with another mode: switching back finds the ticks again. */}
      <Collapse in={!hydrated || mode === 'selected'}>
        <SourceList field={fields.knowledgeSourceIds} sources={sources} disabled={pending} />
      </Collapse>
      <Collapse in={uses}>
        <BehaviourGroup legend="Passages">
          <Stack gap="sm">
            <NumberInput
              key={fields.knowledgePassages.key}
              {...input(fields.knowledgePassages)}
              hideControls={!hydrated}
              label="Passages per answer"
              description={`From 1 to ${KNOWLEDGE_LIMITS.maxPassages}: how many of the best matching passages the agent reads.`}
              min={1}
              max={KNOWLEDGE_LIMITS.maxPassages}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
            />
            <RelevanceField
              key={fields.knowledgeMinRelevance.key}
              hydrated={hydrated}
              field={fields.knowledgeMinRelevance}
              disabled={pending}
            />
          </Stack>
        </BehaviourGroup>
        <BehaviourGroup legend="When the knowledge has no answer">
          <Textarea
            key={fields.knowledgeNoAnswerMessage.key}
            {...input(fields.knowledgeNoAnswerMessage)}
            label="No-answer message"
            description={`Sent, without asking the model, when no passage answers the customer's question; the conversation is marked Needs attention. Leave it empty to send nothing. At most ${MAX_KNOWLEDGE_NO_ANSWER_LENGTH} characters.`}
            autosize
            minRows={2}
            maxRows={5}
          />
        </BehaviourGroup>
      </Collapse>
    </>
  )
}
