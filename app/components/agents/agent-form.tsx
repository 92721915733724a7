import { useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Button, Group, NumberInput, Stack, Text, Textarea, TextInput } from '@mantine/core'
import { Form, Link } from '@remix-run/react'
import {
  useEffect,
  useRef,
  useState,
  type ComponentProps,
  type FormEvent,
  type ReactNode,
  type RefObject,
} from 'react'
import { FormError } from '~/components/auth/form-error'
import { fieldProps } from '~/components/forms/field-props'
import { PendingButton } from '~/components/forms/pending-button'
import {
  AGENT_DEFAULTS,
  AGENT_STATUS_VALUES,
  MODEL_TYPES,
  MODEL_TYPE_LABELS,
  READABLE_ID_IMMUTABLE,
  createAgentSchema,
  type CreateAgentInput,
  type UpdateAgentInput,
  updateAgentSchema,
} from '~/lib/agents/schemas'
import { AGENT_BEHAVIOUR_DEFAULTS, DEFAULT_OFFICE_HOURS } from '~/lib/agents/behaviour'
import { AGENT_LANGUAGE_DEFAULTS } from '~/lib/agents/agent-language'
import { shownTranslations } from '~/lib/agents/translations'
import { BehaviourFields, type BehaviourFormValues } from './agent-behaviour-fields'
import { KnowledgeFields, type KnowledgeFormValues } from './agent-knowledge-fields'
import { AGENT_KNOWLEDGE_DEFAULTS } from '~/lib/knowledge/knowledge'
import { STATUS_LABELS } from './agent-status'
import { AGENTS_PATH } from './paths'
import classes from './agents.module.css'
import { AGENT_FORM_TEXTS } from './texts'
import { TemplatePicker, useReadableIdFromName } from './agent-templates'
import { readableIdFrom, type AgentTemplate } from '~/lib/agents/templates'
import { ChoiceField, CreativityField } from './agent-form-fields'
import { Sections, sectionsWithErrors, SECTIONS, type SectionValue } from './agent-form-sections'
import type { AgentItem, KnowledgeSourceOption } from './types'

/** The form's fields by name (what Conform needs to name and look up fields; values are checked by the schemas). */
type AgentFormFields = BehaviourFormValues &
  KnowledgeFormValues & {
    name: string
    readableId: string
    description: string
    modelType: string
    creativityLevel: number
    systemPrompt: string
    maxTokens: number
    topP: number
    topK: number
    status: string
  }

export type FormComponentType = (props: ComponentProps<typeof Form>) => ReactNode

const MODEL_OPTIONS = MODEL_TYPES.map((value) => ({ value, label: MODEL_TYPE_LABELS[value] }))
const STATUS_OPTIONS = AGENT_STATUS_VALUES.map((value) => ({ value, label: STATUS_LABELS[value] }))

const text = (value: unknown) => (typeof value === 'string' ? value : undefined)

/**
 * The Behaviour tab's first values: the agent's, or a new agent's defaults; office hours off show a default week.
 * Each translation box starts with what the agent sends in its language now (an untouched form changes nothing).
 */
function behaviourDefaults(agent: AgentItem | undefined): BehaviourFormValues {
  const behaviour = agent ?? AGENT_BEHAVIOUR_DEFAULTS
  const hours = behaviour.officeHours ?? DEFAULT_OFFICE_HOURS
  const language = agent ?? AGENT_LANGUAGE_DEFAULTS
  return {
    replyLanguage: language.replyLanguage ?? '',
    translations: shownTranslations(
      agent ?? { ...AGENT_BEHAVIOUR_DEFAULTS, ...AGENT_KNOWLEDGE_DEFAULTS, ...AGENT_LANGUAGE_DEFAULTS },
    ),
    burstWaitSeconds: behaviour.burstWaitSeconds,
    handoffEnabled: behaviour.handoffEnabled,
    handoffMessage: behaviour.handoffMessage,
    fallbackMessage: behaviour.fallbackMessage,
    unreadableMessage: behaviour.unreadableMessage,
    officeHours: { ...hours, enabled: behaviour.officeHours !== null },
  }
}

/** The Knowledge tab's first values: the agent's, or a new agent's defaults (all of the knowledge). */
function knowledgeDefaults(agent: AgentItem | undefined): KnowledgeFormValues {
  const knowledge = agent ?? AGENT_KNOWLEDGE_DEFAULTS
  return {
    knowledgeMode: knowledge.knowledgeMode,
    knowledgeSourceIds: knowledge.knowledgeSourceIds,
    knowledgePassages: knowledge.knowledgePassages,
    knowledgeMinRelevance: knowledge.knowledgeMinRelevance,
    knowledgeNoAnswerMessage: knowledge.knowledgeNoAnswerMessage,
  }
}

/**
 * Create New Agent / Edit Agent. The same component serves the dialog (a fetcher's Form) and the page section
 * shown without JavaScript (a plain Form that posts the page). Validated here and again by the action, with the
 * same schema.
 */
/** The form's first values: the agent's, or the spec's defaults for a new one (with a template's words, if chosen). */
function agentDefaults(agent: AgentItem | undefined, template: AgentTemplate | undefined) {
  return {
    name: agent?.name ?? template?.name,
    readableId: agent?.readableId ?? (template ? readableIdFrom(template.name) : undefined),
    description: agent?.description ?? template?.description ?? undefined,
    modelType: agent?.modelType ?? AGENT_DEFAULTS.modelType,
    creativityLevel: agent?.creativityLevel ?? AGENT_DEFAULTS.creativityLevel,
    systemPrompt: agent?.systemPrompt ?? template?.systemPrompt,
    maxTokens: agent ? (agent.maxTokens ?? undefined) : AGENT_DEFAULTS.maxTokens,
    topP: agent ? (agent.topP ?? undefined) : AGENT_DEFAULTS.topP,
    topK: agent ? (agent.topK ?? undefined) : AGENT_DEFAULTS.topK,
    status: agent?.status ?? AGENT_DEFAULTS.status,
    ...behaviourDefaults(agent),
    ...knowledgeDefaults(agent),
  }
}

/**
 * Errors may sit on a tab the user is not looking at: on each new result (the server's) and each refused submit
 * (the browser's, through revealErrors), the form goes to the first tab with one, and to its first field.
 */
function useErrorsRevealed(
  formRef: RefObject<HTMLFormElement | null>,
  lastResult: SubmissionResult<string[]> | undefined,
  pending: boolean,
) {
  const [active, setActive] = useState<SectionValue>('basic')
  const [focusError, setFocusError] = useState(false)
  const revealErrors = (error: Record<string, unknown> | null | undefined) => {
    const sections = sectionsWithErrors(error)
    if (sections.length === 0) return
    if (!sections.includes(active)) setActive(sections[0])
    setFocusError(true)
  }
  const [seenResult, setSeenResult] = useState(lastResult)
  if (lastResult !== seenResult) {
    setSeenResult(lastResult)
    revealErrors(lastResult?.error)
  }
  useEffect(() => {
    // The fields are disabled while a request runs; they can take the focus once it is over.
    if (!focusError || pending) return
    const frame = requestAnimationFrame(() => {
      formRef.current
        ?.querySelector<HTMLElement>('[data-section]:not([style*="none"]) [aria-invalid="true"]')
        ?.focus()
      setFocusError(false)
    })
    return () => cancelAnimationFrame(frame)
  }, [focusError, pending, formRef])

  return { active, setActive, revealErrors }
}

export function AgentForm({
  agent,
  template,
  lastResult,
  pending,
  hydrated,
  timeZones,
  knowledgeSources,
  FormComponent = Form,
}: {
  agent?: AgentItem
  /** Creating: the template the form starts from. */
  template?: AgentTemplate
  lastResult: SubmissionResult<string[]> | undefined
  pending: boolean
  hydrated: boolean
  /** The time zones office hours may use (the server's list: see timeZoneList). */
  timeZones: string[]
  /** The organization's knowledge sources, to select from. */
  knowledgeSources: KnowledgeSourceOption[]
  FormComponent?: FormComponentType
}) {
  const editing = agent !== undefined
  const formRef = useRef<HTMLFormElement>(null)
  const validate = (formData: FormData) =>
    editing
      ? parseWithZod(formData, { schema: updateAgentSchema })
      : parseWithZod(formData, { schema: createAgentSchema })

  const [form, fields] = useForm<AgentFormFields, CreateAgentInput | UpdateAgentInput>({
    id: editing ? `edit-agent-${agent.id}` : `create-agent-${template?.id ?? 'blank'}`,
    lastResult,
    defaultValue: agentDefaults(agent, template),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => validate(formData),
  })

  const { active, setActive, revealErrors } = useErrorsRevealed(formRef, lastResult, pending)
  const readableId = useReadableIdFromName(text(fields.readableId.initialValue) ?? '')

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submission = validate(new FormData(event.currentTarget))
    if (submission.status === 'error') revealErrors(submission.error)
    form.onSubmit(event)
  }

  // What every field takes from its Conform field, and that it waits while the form is sent.
  const input = (field: Parameters<typeof fieldProps>[0]) => ({ ...fieldProps(field), disabled: pending })

  const withErrors = SECTIONS.filter((section) =>
    section.fields.some((f) => Object.values(fields[f].allErrors).some((messages) => messages.length > 0)),
  ).map((section) => section.value)

  const panels: Record<SectionValue, ReactNode> = {
    basic: (
      <>
        <TextInput
          key={fields.name.key}
          {...input(fields.name)}
          label="Name"
          placeholder="Customer Support Agent"
          required
          data-autofocus
          onChange={editing ? undefined : (event) => readableId.followName(event.currentTarget.value)}
        />
        <TextInput
          key={fields.readableId.key}
          id={fields.readableId.id}
          name={editing ? undefined : fields.readableId.name}
          label="Readable ID"
          required={!editing}
          description={editing ? READABLE_ID_IMMUTABLE : AGENT_FORM_TEXTS.readableIdHint}
          // Not posted when editing, so a server reply carries no value for it: show the agent's own.
          {...(editing
            ? { defaultValue: agent.readableId }
            : hydrated
              ? { value: readableId.value, onChange: (event) => readableId.type(event.currentTarget.value) }
              : { defaultValue: text(fields.readableId.initialValue) })}
          error={fields.readableId.errors?.[0]}
          disabled={editing || pending}
        />
        <Textarea
          key={fields.systemPrompt.key}
          {...input(fields.systemPrompt)}
          label="System Prompt"
          description={AGENT_FORM_TEXTS.systemPromptHint}
          placeholder="You are a helpful assistant that answers customer questions..."
          required
          autosize
          minRows={6}
          maxRows={14}
        />
        <ChoiceField
          key={fields.modelType.key}
          hydrated={hydrated}
          {...input(fields.modelType)}
          label="Model Type"
          data={MODEL_OPTIONS}
          defaultValue={text(fields.modelType.initialValue) ?? AGENT_DEFAULTS.modelType}
        />
        <CreativityField
          key={fields.creativityLevel.key}
          hydrated={hydrated}
          {...input(fields.creativityLevel)}
          defaultValue={Number(text(fields.creativityLevel.initialValue) ?? AGENT_DEFAULTS.creativityLevel)}
        />
        <Textarea
          key={fields.description.key}
          {...input(fields.description)}
          label="Description"
          placeholder="What this agent does"
          autosize
          minRows={2}
          maxRows={5}
        />
      </>
    ),
    advanced: (
      <>
        <Text size="sm" c="gray.7">
          {AGENT_FORM_TEXTS.advancedHint}
        </Text>
        <NumberInput
          key={fields.maxTokens.key}
          {...input(fields.maxTokens)}
          // The steppers need JavaScript; without it the field is typed in.
          hideControls={!hydrated}
          label="Max Tokens"
          description="From 100 to 8192"
          allowDecimal={false}
        />
        <NumberInput
          key={fields.topP.key}
          {...input(fields.topP)}
          hideControls={!hydrated}
          label="Top P"
          description="From 0 to 1"
          step={0.05}
        />
        <NumberInput
          key={fields.topK.key}
          {...input(fields.topK)}
          hideControls={!hydrated}
          label="Top K"
          description="From 1 to 100"
          allowDecimal={false}
        />
        {editing ? (
          <ChoiceField
            key={fields.status.key}
            hydrated={hydrated}
            {...input(fields.status)}
            label="Status"
            data={STATUS_OPTIONS}
            defaultValue={text(fields.status.initialValue) ?? agent.status}
          />
        ) : null}
      </>
    ),
    behaviour: (
      <BehaviourFields
        fields={fields}
        hydrated={hydrated}
        pending={pending}
        timeZones={timeZones}
        hadOfficeHours={Boolean(agent?.officeHours)}
      />
    ),
    knowledge: (
      <KnowledgeFields fields={fields} sources={knowledgeSources} hydrated={hydrated} pending={pending} />
    ),
  }

  const title = editing ? 'Edit Agent' : 'Create New Agent'
  return (
    <FormComponent
      ref={formRef}
      method="post"
      id={form.id}
      onSubmit={onSubmit}
      noValidate={hydrated}
      aria-label={title}
    >
      <Stack gap="md">
        <FormError message={form.errors?.[0]} />
        {hydrated ? null : <input type="hidden" name="noscript" value="true" />}
        {editing ? null : <TemplatePicker chosen={template?.id} disabled={pending} />}
        <Sections
          hydrated={hydrated}
          active={active}
          onChange={setActive}
          withErrors={withErrors}
          panels={panels}
        />
        <Group justify="flex-end" className={classes.formFooter}>
          {pending ? (
            <Button variant="default" disabled>
              Cancel
            </Button>
          ) : (
            <Button variant="default" component={Link} to={AGENTS_PATH} preventScrollReset>
              Cancel
            </Button>
          )}
          <PendingButton pending={pending} pendingLabel="Saving...">
            {editing ? 'Update Agent' : 'Create Agent'}
          </PendingButton>
        </Group>
      </Stack>
    </FormComponent>
  )
}
