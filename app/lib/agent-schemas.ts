import { z } from 'zod'
import { hasNoNul, NUL_MESSAGE } from './input'

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

const name = z
  .string({ error: 'Name must be at least 3 characters' })
  .trim()
  .min(3, 'Name must be at least 3 characters')
  .max(100, 'Name must be less than 100 characters')
  .refine(hasNoNul, NUL_MESSAGE)

const readableId = z
  .string({ error: 'ID must be at least 3 characters' })
  .trim()
  .min(3, 'ID must be at least 3 characters')
  .max(50, 'ID must be less than 50 characters')
  .regex(/^[a-z0-9-]+$/, 'ID must contain only lowercase letters, numbers, and hyphens')

const fields = {
  name,
  description: z
    .string()
    .trim()
    .max(500, 'Description must be less than 500 characters')
    .refine(hasNoNul, NUL_MESSAGE)
    .optional(),
  modelType: z.enum(MODEL_TYPES),
  creativityLevel: z
    .number({ error: 'Creativity must be a number' })
    .min(0, 'Creativity must be at least 0')
    .max(1, 'Creativity must be at most 1'),
  systemPrompt: z
    .string({ error: 'System prompt must be at least 10 characters' })
    .trim()
    .min(10, 'System prompt must be at least 10 characters')
    .max(5000, 'System prompt must be less than 5000 characters')
    .refine(hasNoNul, NUL_MESSAGE),
  maxTokens: z
    .number({ error: 'Max tokens must be a number' })
    .int('Max tokens must be a whole number')
    .min(100, 'Max tokens must be at least 100')
    .max(8192, 'Max tokens must be at most 8192')
    .optional(),
  topP: z
    .number({ error: 'Top P must be a number' })
    .min(0, 'Top P must be at least 0')
    .max(1, 'Top P must be at most 1')
    .optional(),
  topK: z
    .number({ error: 'Top K must be a number' })
    .int('Top K must be a whole number')
    .min(1, 'Top K must be at least 1')
    .max(100, 'Top K must be at most 100')
    .optional(),
}

/** Create Agent: the form and POST .../agents share it. */
export const createAgentSchema = z.object({ ...fields, readableId })

/** Edit Agent: the form and PATCH .../agents/{id}; the readable id is refused, never silently ignored. */
export const updateAgentSchema = z.object({
  ...fields,
  status: z.enum(AGENT_STATUS_VALUES).optional(),
  readableId: z.never({ error: READABLE_ID_IMMUTABLE }).optional(),
})

export const TEST_MESSAGE_REQUIRED = 'Please enter a message to test'

/** POST .../agents/{id}/run: the spec's input and context (section 7). */
export const runAgentSchema = z.object({
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

export type CreateAgentInput = z.output<typeof createAgentSchema>
export type UpdateAgentInput = z.output<typeof updateAgentSchema>
export type RunAgentInput = z.output<typeof runAgentSchema>

/** Creativity as the UI shows it: 0.7 → "70%". */
export const creativityPercent = (level: number) => `${Math.round(level * 100)}%`
export const creativityLabel = (level: number) =>
  level < 0.34 ? 'Focused' : level < 0.67 ? 'Balanced' : 'Creative'
