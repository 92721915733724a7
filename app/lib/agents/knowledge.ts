import { z } from 'zod'
import { hasNoNul, isUuid, NUL_MESSAGE } from '~/lib/shared/input'
import { AGENT_KNOWLEDGE_DEFAULTS, AGENT_KNOWLEDGE_MODES, KNOWLEDGE_LIMITS } from '~/lib/knowledge/knowledge'

// What an agent answers from (issue #18 part 3): its knowledge mode, the sources it selected, how many passages its
// prompt carries, the relevance they need, and what it says when none has the answer. One module for the agent
// form's Knowledge tab and the API, as agent-behaviour.ts is for the Behaviour tab. Client-safe.

export const MAX_KNOWLEDGE_NO_ANSWER_LENGTH = 1000
/** The relevance steps the form offers (and the slider moves by). */
export const KNOWLEDGE_RELEVANCE_STEP = 0.05

export const AGENT_KNOWLEDGE_TEXTS = {
  modeInvalid: `Answer from must be one of: ${AGENT_KNOWLEDGE_MODES.join(', ')}`,
  sourceIdsInvalid: 'Knowledge sources must be a list of source ids',
  sourceIdInvalid: 'Knowledge sources must be ids of knowledge sources',
  selectSource: 'Select at least one knowledge source',
  passages: `Passages must be between 1 and ${KNOWLEDGE_LIMITS.maxPassages}`,
  passagesWhole: 'Passages must be a whole number',
  minRelevance: 'Minimum relevance must be between 0 and 1',
  noAnswerMessage: `The no-answer message must be at most ${MAX_KNOWLEDGE_NO_ANSWER_LENGTH} characters`,
  noAnswerMessageText: 'The no-answer message must be text',
  /** A source id that names no knowledge source of the agent's organization (the service checks). */
  foreignSource: (id: string) => `Knowledge source ${id} was not found in this organization`,
} as const

/** The five knowledge settings as every agent body (form and API) carries them. */
export const knowledgeFields = {
  knowledgeMode: z.enum(AGENT_KNOWLEDGE_MODES, { error: AGENT_KNOWLEDGE_TEXTS.modeInvalid }),
  /** Kept whatever the mode (switching back to Selected finds the ticks again); only used with 'selected'. */
  knowledgeSourceIds: z
    .array(
      z
        .string({ error: AGENT_KNOWLEDGE_TEXTS.sourceIdInvalid })
        .refine(isUuid, AGENT_KNOWLEDGE_TEXTS.sourceIdInvalid),
      { error: AGENT_KNOWLEDGE_TEXTS.sourceIdsInvalid },
    )
    .max(1000, 'At most 1000 knowledge sources can be selected'),
  knowledgePassages: z
    .number({ error: AGENT_KNOWLEDGE_TEXTS.passages })
    .int(AGENT_KNOWLEDGE_TEXTS.passagesWhole)
    .min(1, AGENT_KNOWLEDGE_TEXTS.passages)
    .max(KNOWLEDGE_LIMITS.maxPassages, AGENT_KNOWLEDGE_TEXTS.passages),
  knowledgeMinRelevance: z
    .number({ error: AGENT_KNOWLEDGE_TEXTS.minRelevance })
    .min(0, AGENT_KNOWLEDGE_TEXTS.minRelevance)
    .max(1, AGENT_KNOWLEDGE_TEXTS.minRelevance),
  /** Empty: nothing is sent on a miss (the conversation is still left to a person and marked Needs attention). */
  knowledgeNoAnswerMessage: z
    .string({ error: AGENT_KNOWLEDGE_TEXTS.noAnswerMessageText })
    .trim()
    .max(MAX_KNOWLEDGE_NO_ANSWER_LENGTH, AGENT_KNOWLEDGE_TEXTS.noAnswerMessage)
    .refine(hasNoNul, NUL_MESSAGE),
}

export type AgentKnowledge = {
  knowledgeMode: (typeof AGENT_KNOWLEDGE_MODES)[number]
  knowledgeSourceIds: string[]
  knowledgePassages: number
  knowledgeMinRelevance: number
  knowledgeNoAnswerMessage: string
}

/** What the OpenAPI document says of each knowledge field. */
export const KNOWLEDGE_DESCRIPTIONS = {
  knowledgeMode:
    "What the agent answers from: all of the organization's knowledge, only the sources in knowledgeSourceIds, or none (its system prompt only, as agents made before knowledge existed). A new agent answers from all; an organization (or selection) without any processed passage is answered from the system prompt",
  knowledgeSourceIds:
    "With knowledgeMode 'selected' (at least one is then required): the ids of the organization's knowledge sources the agent answers from. Kept, but unused, in the other modes; an id of another organization's source is refused",
  knowledgePassages: `How many of the best matching passages the prompt carries (1 to ${KNOWLEDGE_LIMITS.maxPassages})`,
  knowledgeMinRelevance:
    "0 to 1: a passage scoring less (the share of the question's weighted words it holds, plus up to 0.4 as its heading reads like the question) is not given to the model",
  knowledgeNoAnswerMessage: `Sent, without asking the model, when no passage answers the customer's question (at most ${MAX_KNOWLEDGE_NO_ANSWER_LENGTH} characters); the conversation is left to a person and marked Needs attention. Empty sends nothing (the conversation is still marked)`,
} as const satisfies Record<keyof typeof knowledgeFields, string>

export const describedKnowledge = <K extends keyof typeof knowledgeFields, T extends z.ZodType>(
  key: K,
  schema: T,
) => schema.meta({ description: KNOWLEDGE_DESCRIPTIONS[key] })

/** A new agent's knowledge where an API body leaves it out. */
export const knowledgeWithDefaults = {
  knowledgeMode: describedKnowledge(
    'knowledgeMode',
    knowledgeFields.knowledgeMode.default(AGENT_KNOWLEDGE_DEFAULTS.knowledgeMode),
  ),
  knowledgeSourceIds: describedKnowledge(
    'knowledgeSourceIds',
    knowledgeFields.knowledgeSourceIds.default([]),
  ),
  knowledgePassages: describedKnowledge(
    'knowledgePassages',
    knowledgeFields.knowledgePassages.default(AGENT_KNOWLEDGE_DEFAULTS.knowledgePassages),
  ),
  knowledgeMinRelevance: describedKnowledge(
    'knowledgeMinRelevance',
    knowledgeFields.knowledgeMinRelevance.default(AGENT_KNOWLEDGE_DEFAULTS.knowledgeMinRelevance),
  ),
  knowledgeNoAnswerMessage: describedKnowledge(
    'knowledgeNoAnswerMessage',
    knowledgeFields.knowledgeNoAnswerMessage.default(AGENT_KNOWLEDGE_DEFAULTS.knowledgeNoAnswerMessage),
  ),
}

/** PATCH: each field optional (left out: unchanged). */
export const knowledgePatchFields = {
  knowledgeMode: describedKnowledge('knowledgeMode', knowledgeFields.knowledgeMode.optional()),
  knowledgeSourceIds: describedKnowledge('knowledgeSourceIds', knowledgeFields.knowledgeSourceIds.optional()),
  knowledgePassages: describedKnowledge('knowledgePassages', knowledgeFields.knowledgePassages.optional()),
  knowledgeMinRelevance: describedKnowledge(
    'knowledgeMinRelevance',
    knowledgeFields.knowledgeMinRelevance.optional(),
  ),
  knowledgeNoAnswerMessage: describedKnowledge(
    'knowledgeNoAnswerMessage',
    knowledgeFields.knowledgeNoAnswerMessage.optional(),
  ),
}

/** The response's fields. */
export const knowledgeResponseFields = {
  knowledgeMode: describedKnowledge('knowledgeMode', z.enum(AGENT_KNOWLEDGE_MODES)),
  knowledgeSourceIds: describedKnowledge('knowledgeSourceIds', z.array(z.string())),
  knowledgePassages: describedKnowledge('knowledgePassages', z.number()),
  knowledgeMinRelevance: describedKnowledge('knowledgeMinRelevance', z.number()),
  knowledgeNoAnswerMessage: describedKnowledge('knowledgeNoAnswerMessage', z.string()),
}

/**
 * The Knowledge tab's fields as the create and edit forms post them: ticked sources come as one value per box
 * (none ticked posts nothing), an emptied message box posts '' (which Conform reads as left out: send nothing).
 */
export const knowledgeFormFields = {
  knowledgeMode: knowledgeFields.knowledgeMode,
  knowledgeSourceIds: knowledgeFields.knowledgeSourceIds.default([]),
  knowledgePassages: knowledgeFields.knowledgePassages,
  knowledgeMinRelevance: knowledgeFields.knowledgeMinRelevance,
  knowledgeNoAnswerMessage: knowledgeFields.knowledgeNoAnswerMessage.default(''),
}

/**
 * The hidden field the Knowledge tab posts. Without it a post never showed the tab (an older page, a script, a
 * test helper): a new agent then takes AGENT_KNOWLEDGE_DEFAULTS, as an API body that leaves the fields out does.
 */
export const KNOWLEDGE_FORM_MARKER = 'knowledgeForm'

/** A new agent's form values where a post never showed the Knowledge tab: the defaults, as values. */
export function withKnowledgeDefaults(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || KNOWLEDGE_FORM_MARKER in raw) return raw
  return { ...AGENT_KNOWLEDGE_DEFAULTS, ...raw }
}

/**
 * "Selected sources" needs a source. Checked on a whole body (create, the edit form); a PATCH that leaves the ids
 * out keeps the stored ones, which the service checks.
 */
export function requireSelectedSource(
  value: { knowledgeMode?: string; knowledgeSourceIds?: string[] },
  ctx: z.RefinementCtx,
) {
  if (value.knowledgeMode === 'selected' && value.knowledgeSourceIds?.length === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['knowledgeSourceIds'],
      message: AGENT_KNOWLEDGE_TEXTS.selectSource,
    })
  }
}

/** Minimum relevance as the form and the details show it: 0.2 → "20%". */
export const relevancePercent = (value: number) => `${Math.round(value * 100)}%`
