import { z } from 'zod'
import { hasNoNul, NUL_MESSAGE, requiredOr } from '~/lib/shared/input'
import {
  AGENT_BEHAVIOUR_DEFAULTS,
  MAX_BURST_WAIT_SECONDS,
  behaviourFields,
  officeHoursSchema,
} from './behaviour'
import { behaviourFormFields, withBehaviourDefaults } from './behaviour-form'
import {
  languageFormFields,
  languagePatchFields,
  languageResponseFields,
  languageWithDefaults,
} from './agent-language'
import {
  knowledgeFormFields,
  knowledgePatchFields,
  knowledgeResponseFields,
  knowledgeWithDefaults,
  requireSelectedSource,
  withKnowledgeDefaults,
} from './knowledge'

export const MODEL_TYPES = ['simple', 'medium', 'pro'] as const
export const AGENT_STATUS_VALUES = ['active', 'inactive', 'archived'] as const
export type ModelType = (typeof MODEL_TYPES)[number]
export type AgentStatus = (typeof AGENT_STATUS_VALUES)[number]

/** The spec's agent defaults (section 9). */
export const AGENT_DEFAULTS = {
  modelType: 'medium',
  creativityLevel: 0.7,
  maxTokens: 1000,
  topP: 0.9,
  topK: 40,
  status: 'active',
} as const

export const MODEL_TYPE_LABELS: Record<ModelType, string> = {
  simple: 'Simple - Fast responses',
  medium: 'Medium - Balanced',
  pro: 'Pro - Complex reasoning',
}

export const READABLE_ID_IMMUTABLE = 'The readable ID cannot be changed after creation'

const NAME_SHORT = 'Name must be at least 3 characters'
const ID_SHORT = 'ID must be at least 3 characters'
const PROMPT_SHORT = 'System prompt must be at least 10 characters'
const CREATIVITY_NOT_A_NUMBER = 'Creativity must be a number'

/** What an API body that leaves out a required field is told. */
export const AGENT_REQUIRED = {
  name: 'Name is required',
  readableId: 'ID is required',
  modelType: 'Model type is required',
  creativityLevel: 'Creativity is required',
  systemPrompt: 'System prompt is required',
} as const

const MODEL_TYPE_INVALID = `Model type must be one of: ${MODEL_TYPES.join(', ')}`
const STATUS_INVALID = `Status must be one of: ${AGENT_STATUS_VALUES.join(', ')}`

/**
 * The rules and texts of the spec's agent table (section 5). `absent` says where a value may be missing: in a form
 * that is an empty box (Conform reads it as undefined), which the spec words as its minimum ("Name must be at least 3
 * characters"); in an API body it is a key left out, worded "Name is required".
 */
function agentFields(absent: 'form' | 'api') {
  const missing = (required: string, otherwise: string) =>
    absent === 'api' ? requiredOr(required, otherwise) : otherwise
  const requiredText = (required: string, short: string, [min, max]: [number, number], tooLong: string) =>
    z
      .string({ error: missing(required, short) })
      .trim()
      .min(min, short)
      .max(max, tooLong)
      .refine(hasNoNul, NUL_MESSAGE)
  return {
    name: requiredText(AGENT_REQUIRED.name, NAME_SHORT, [3, 100], 'Name must be less than 100 characters'),
    readableId: z
      .string({ error: missing(AGENT_REQUIRED.readableId, ID_SHORT) })
      .trim()
      .min(3, ID_SHORT)
      .max(50, 'ID must be less than 50 characters')
      .regex(/^[a-z0-9-]+$/, 'ID must contain only lowercase letters, numbers, and hyphens'),
    description: z
      .string({ error: 'Description must be text' })
      .trim()
      .max(500, 'Description must be less than 500 characters')
      .refine(hasNoNul, NUL_MESSAGE),
    modelType: z.enum(MODEL_TYPES, { error: requiredOr(AGENT_REQUIRED.modelType, MODEL_TYPE_INVALID) }),
    creativityLevel: z
      .number({ error: missing(AGENT_REQUIRED.creativityLevel, CREATIVITY_NOT_A_NUMBER) })
      .min(0, 'Creativity must be at least 0')
      .max(1, 'Creativity must be at most 1'),
    systemPrompt: requiredText(
      AGENT_REQUIRED.systemPrompt,
      PROMPT_SHORT,
      [10, 5000],
      'System prompt must be less than 5000 characters',
    ),
    maxTokens: z
      .number({ error: 'Max tokens must be a number' })
      .int('Max tokens must be a whole number')
      .min(100, 'Max tokens must be at least 100')
      .max(8192, 'Max tokens must be at most 8192'),
    topP: z
      .number({ error: 'Top P must be a number' })
      .min(0, 'Top P must be at least 0')
      .max(1, 'Top P must be at most 1'),
    topK: z
      .number({ error: 'Top K must be a number' })
      .int('Top K must be a whole number')
      .min(1, 'Top K must be at least 1')
      .max(100, 'Top K must be at most 100'),
  }
}

const agentStatus = z.enum(AGENT_STATUS_VALUES, { error: STATUS_INVALID })
const readableIdRefused = z.never({ error: READABLE_ID_IMMUTABLE }).optional()

/** A new agent: what is left out takes the spec's defaults (section 9), active included. */
function creating(fields: ReturnType<typeof agentFields>) {
  return z.object({
    ...fields,
    description: fields.description.optional(),
    modelType: fields.modelType.default(AGENT_DEFAULTS.modelType),
    creativityLevel: fields.creativityLevel.default(AGENT_DEFAULTS.creativityLevel),
    maxTokens: fields.maxTokens.default(AGENT_DEFAULTS.maxTokens),
    topP: fields.topP.default(AGENT_DEFAULTS.topP),
    topK: fields.topK.default(AGENT_DEFAULTS.topK),
    status: agentStatus.default(AGENT_DEFAULTS.status),
  })
}

/**
 * Create Agent form, with its Behaviour and Knowledge tabs; a post that never showed one of them takes a new
 * agent's defaults for it, as an API body does.
 */
export const createAgentSchema = z.preprocess(
  (raw) => withKnowledgeDefaults(withBehaviourDefaults(raw)),
  creating(agentFields('form'))
    .extend(behaviourFormFields)
    .extend(languageFormFields)
    .extend(knowledgeFormFields)
    .superRefine(requireSelectedSource),
)

/** What the OpenAPI document says of each behaviour field (issue #17). */
const BEHAVIOUR_DESCRIPTIONS = {
  burstWaitSeconds: `Wait for the customer to finish typing: messages sent within this many seconds (0 to ${MAX_BURST_WAIT_SECONDS}) are answered once, together; 0 answers each message at once`,
  handoffEnabled:
    'Whether the agent may hand the conversation over to a person (its handoff tool): the customer gets the handoff message, the conversation is paused and marked Needs attention',
  handoffMessage: 'What the customer receives when the agent hands over',
  fallbackMessage:
    'What the customer receives when the model fails after its retries or answers nothing; empty sends nothing (the conversation is still marked Needs attention)',
  unreadableMessage:
    'The reply to a message the agent cannot read (a voice note, photo, sticker, file or location), once per burst',
  officeHours:
    'A weekly schedule in a time zone, and what the agent does outside it (answer as usual, or send the out-of-hours message once per closed period and mark the conversation Needs attention); null: no office hours, the agent answers at any time',
} as const satisfies Record<keyof typeof behaviourFields, string>

const described = <K extends keyof typeof behaviourFields, T extends z.ZodType>(key: K, schema: T) =>
  schema.meta({ description: BEHAVIOUR_DESCRIPTIONS[key] })

/** The behaviour a new agent takes where the body leaves it out (issue #17). */
const behaviourWithDefaults = {
  burstWaitSeconds: described(
    'burstWaitSeconds',
    behaviourFields.burstWaitSeconds.default(AGENT_BEHAVIOUR_DEFAULTS.burstWaitSeconds),
  ),
  handoffEnabled: described(
    'handoffEnabled',
    behaviourFields.handoffEnabled.default(AGENT_BEHAVIOUR_DEFAULTS.handoffEnabled),
  ),
  handoffMessage: described(
    'handoffMessage',
    behaviourFields.handoffMessage.default(AGENT_BEHAVIOUR_DEFAULTS.handoffMessage),
  ),
  fallbackMessage: described(
    'fallbackMessage',
    behaviourFields.fallbackMessage.default(AGENT_BEHAVIOUR_DEFAULTS.fallbackMessage),
  ),
  unreadableMessage: described(
    'unreadableMessage',
    behaviourFields.unreadableMessage.default(AGENT_BEHAVIOUR_DEFAULTS.unreadableMessage),
  ),
  officeHours: described(
    'officeHours',
    behaviourFields.officeHours.default(AGENT_BEHAVIOUR_DEFAULTS.officeHours),
  ),
}

/**
 * POST .../agents: the form's rules, with a left-out required field named as such, and the behaviour and knowledge
 * fields (a new agent answers from all of the organization's knowledge).
 */
export const createAgentBodySchema = creating(agentFields('api'))
  .extend(behaviourWithDefaults)
  .extend(languageWithDefaults)
  .extend(knowledgeWithDefaults)
  .superRefine(requireSelectedSource)

const formFields = agentFields('form')
/** An optional field the edit form shows: an emptied box clears it (null), as the form holds the whole agent. */
const clearable = <T extends z.ZodType>(schema: T) => schema.nullish().transform((value) => value ?? null)

/** Edit Agent form: the whole agent; the readable id is refused, never silently ignored. */
export const updateAgentSchema = z
  .object({
    name: formFields.name,
    description: clearable(formFields.description),
    modelType: formFields.modelType,
    creativityLevel: formFields.creativityLevel,
    systemPrompt: formFields.systemPrompt,
    maxTokens: clearable(formFields.maxTokens),
    topP: clearable(formFields.topP),
    topK: clearable(formFields.topK),
    status: agentStatus.optional(),
    readableId: readableIdRefused,
    ...behaviourFormFields,
    ...languageFormFields,
    ...knowledgeFormFields,
  })
  .superRefine(requireSelectedSource)

const apiFields = agentFields('api')
/**
 * PATCH .../agents/{id}: partial. A field left out stays as it is; null clears an optional one (description,
 * maxTokens, topP, topK); a required one cannot be cleared. The readable id is refused.
 */
export const patchAgentBodySchema = z
  .object({
    name: apiFields.name.optional(),
    description: apiFields.description.nullable().optional(),
    modelType: apiFields.modelType.optional(),
    creativityLevel: apiFields.creativityLevel.optional(),
    systemPrompt: apiFields.systemPrompt.optional(),
    maxTokens: apiFields.maxTokens.nullable().optional(),
    topP: apiFields.topP.nullable().optional(),
    topK: apiFields.topK.nullable().optional(),
    status: agentStatus.optional(),
    readableId: readableIdRefused,
    burstWaitSeconds: described('burstWaitSeconds', behaviourFields.burstWaitSeconds.optional()),
    handoffEnabled: described('handoffEnabled', behaviourFields.handoffEnabled.optional()),
    handoffMessage: described('handoffMessage', behaviourFields.handoffMessage.optional()),
    fallbackMessage: described('fallbackMessage', behaviourFields.fallbackMessage.optional()),
    unreadableMessage: described('unreadableMessage', behaviourFields.unreadableMessage.optional()),
    /** null switches office hours off. */
    officeHours: described('officeHours', behaviourFields.officeHours.optional()),
    ...languagePatchFields,
    ...knowledgePatchFields,
  })
  .superRefine(requireSelectedSource)

/** A point in time: a Date on the server, an ISO 8601 string once it is JSON (as the OpenAPI document says). */
const timestamp = z.date().meta({ type: 'string', format: 'date-time' })

/** An agent as the API and the screens read it (spec section 3, "Agent"); the service's AgentView is this. */
export const agentSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  readableId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  modelType: z.enum(MODEL_TYPES),
  creativityLevel: z.number(),
  systemPrompt: z.string(),
  maxTokens: z.number().nullable(),
  topP: z.number().nullable(),
  topK: z.number().nullable(),
  status: z.enum(AGENT_STATUS_VALUES),
  burstWaitSeconds: described('burstWaitSeconds', z.number()),
  handoffEnabled: described('handoffEnabled', z.boolean()),
  handoffMessage: described('handoffMessage', z.string()),
  fallbackMessage: described('fallbackMessage', z.string()),
  unreadableMessage: described('unreadableMessage', z.string()),
  officeHours: described('officeHours', officeHoursSchema.nullable()),
  ...languageResponseFields,
  ...knowledgeResponseFields,
  /** Who created it: their display name, else their email. */
  createdBy: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
})

export const TEST_MESSAGE_REQUIRED = 'Please enter a message to test'

/** POST .../agents/{id}/run: the spec's input and context (section 7). */
/** How many earlier answers a test conversation carries (docs/decisions/067): ten turns, as many a first try needs. */
export const TEST_TURNS_MAX = 10
export const TEST_HISTORY_TOO_LONG = `A test conversation holds at most ${TEST_TURNS_MAX} earlier messages: start over`

export const runAgentSchema = z.object({
  /**
   * The conversation so far, as the execution ids of this agent's earlier runs, oldest first: the model reads
   * those questions and answers before `input` (the Test Agent chat; docs/decisions/067).
   */
  history: z
    .array(z.string().regex(/^exec_[0-9a-f-]{36}$/, 'Not an execution id'))
    .max(TEST_TURNS_MAX, TEST_HISTORY_TOO_LONG)
    .optional(),
  input: z
    .string({ error: TEST_MESSAGE_REQUIRED })
    .trim()
    .min(1, TEST_MESSAGE_REQUIRED)
    .max(10_000, 'The message must be at most 10000 characters')
    .refine(hasNoNul, NUL_MESSAGE),
  context: z
    .object({
      userId: z.string().max(200).optional(),
      channelId: z.string().max(200).optional(),
      platformName: z.string().max(50).optional(),
      metadata: z.object({ testMode: z.boolean().optional() }).catchall(z.unknown()).optional(),
    })
    .optional(),
})

/** The test runs' fixed context (spec section 9). */
export const TEST_RUN_CONTEXT = {
  userId: 'test-user',
  channelId: 'test-channel',
  platformName: 'test',
  metadata: { testMode: true },
} as const

export const agentListQuerySchema = z.object({
  status: z.enum(AGENT_STATUS_VALUES).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
})

export type CreateAgentInput = z.output<typeof createAgentSchema> &
  Partial<z.output<typeof createAgentBodySchema>>
export type UpdateAgentInput = z.output<typeof updateAgentSchema>
/** What an update may change: a field left out stays, null clears an optional one. */
export type AgentChanges = z.output<typeof patchAgentBodySchema>
export type AgentRecord = z.output<typeof agentSchema>
export type RunAgentInput = z.output<typeof runAgentSchema>

/** Creativity as the UI shows it: 0.7 → "70%". */
export const creativityPercent = (level: number) => `${Math.round(level * 100)}%`
/** The spec's default, 0.7, reads Balanced: "Creative" is for the top of the scale (issue 34). */
export const creativityLabel = (level: number) =>
  level < 0.25 ? 'Focused' : level < 0.75 ? 'Balanced' : 'Creative'
