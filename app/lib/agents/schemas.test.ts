import { describe, expect, it } from 'vitest'
import { AGENT_BEHAVIOUR_DEFAULTS } from './behaviour'
import { AGENT_KNOWLEDGE_TEXTS } from './knowledge'
import { AGENT_KNOWLEDGE_DEFAULTS } from '~/lib/knowledge/knowledge'
import {
  createAgentBodySchema,
  createAgentSchema,
  patchAgentBodySchema,
  READABLE_ID_IMMUTABLE,
  updateAgentSchema,
} from './schemas'

const required = { name: 'Support Bot', readableId: 'support-bot', systemPrompt: 'You are a helpful agent.' }

const messages = (result: {
  success: boolean
  error?: { issues: { path: PropertyKey[]; message: string }[] }
}) => Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]))

describe('the agent create body', () => {
  it("takes the spec defaults (section 9) and a new agent's behaviour (issue #17) for every field left out", () => {
    expect(createAgentBodySchema.parse(required)).toEqual({
      ...required,
      // The spec's agent defaults (section 9), written out rather than read from AGENT_DEFAULTS.
      modelType: 'medium',
      creativityLevel: 0.7,
      maxTokens: 1000,
      topP: 0.9,
      topK: 40,
      status: 'active',
      ...AGENT_BEHAVIOUR_DEFAULTS,
      ...AGENT_KNOWLEDGE_DEFAULTS,
      // The customer's language, no translations of the owner's (docs/decisions/072).
      replyLanguage: null,
      translations: {},
    })
    expect(AGENT_KNOWLEDGE_DEFAULTS.knowledgeMode).toBe('all')
  })

  it('says in words which required field is missing, never zod’s default', () => {
    expect(messages(createAgentBodySchema.safeParse({}))).toEqual({
      name: 'Name is required',
      readableId: 'ID is required',
      systemPrompt: 'System prompt is required',
    })
    expect(messages(createAgentBodySchema.safeParse({ ...required, modelType: 'huge' }))).toEqual({
      modelType: 'Model type must be one of: simple, medium, pro',
    })
    expect(messages(createAgentBodySchema.safeParse({ ...required, creativityLevel: 'high' }))).toEqual({
      creativityLevel: 'Creativity must be a number',
    })
  })

  it('keeps the form’s texts: an empty box is worded as the spec’s minimum', () => {
    expect(messages(createAgentSchema.safeParse({}))).toMatchObject({
      name: 'Name must be at least 3 characters',
      readableId: 'ID must be at least 3 characters',
      systemPrompt: 'System prompt must be at least 10 characters',
    })
  })
})

describe('the agent PATCH body', () => {
  it('is partial: one field alone is a whole request, and nothing else appears', () => {
    expect(patchAgentBodySchema.parse({ status: 'inactive' })).toEqual({ status: 'inactive' })
    expect(patchAgentBodySchema.parse({ name: ' Renamed ' })).toEqual({ name: 'Renamed' })
    expect(patchAgentBodySchema.parse({})).toEqual({})
  })

  it('null clears an optional field; a required one cannot be cleared; the readable id is refused', () => {
    expect(patchAgentBodySchema.parse({ maxTokens: null, description: null })).toEqual({
      maxTokens: null,
      description: null,
    })
    expect(messages(patchAgentBodySchema.safeParse({ modelType: null, name: null }))).toEqual({
      modelType: 'Model type is required',
      name: 'Name is required',
    })
    expect(messages(patchAgentBodySchema.safeParse({ readableId: 'new-id' }))).toEqual({
      readableId: READABLE_ID_IMMUTABLE,
    })
    expect(messages(patchAgentBodySchema.safeParse({ status: 'deleted' }))).toEqual({
      status: 'Status must be one of: active, inactive, archived',
    })
  })

  it('the edit form holds the whole agent: an emptied optional box clears it', () => {
    const { readableId: _id, status: _status, ...agent } = createAgentSchema.parse(required)
    const { maxTokens: _cleared, ...withoutMaxTokens } = agent
    expect(updateAgentSchema.parse(withoutMaxTokens)).toMatchObject({ maxTokens: null, description: null })
  })
})

describe('the knowledge fields (issue #18)', () => {
  const id = '3f6f1d2e-8b1a-4c3e-9d2f-1a2b3c4d5e6f'
  it('say in words what is wrong with each', () => {
    const refused: [Record<string, unknown>, string, string][] = [
      [{ knowledgeMode: 'some' }, 'knowledgeMode', AGENT_KNOWLEDGE_TEXTS.modeInvalid],
      [{ knowledgePassages: 0 }, 'knowledgePassages', 'Passages must be between 1 and 10'],
      [{ knowledgePassages: 11 }, 'knowledgePassages', 'Passages must be between 1 and 10'],
      [{ knowledgePassages: 2.5 }, 'knowledgePassages', 'Passages must be a whole number'],
      [{ knowledgeMinRelevance: -0.1 }, 'knowledgeMinRelevance', 'Minimum relevance must be between 0 and 1'],
      [{ knowledgeMinRelevance: 1.5 }, 'knowledgeMinRelevance', 'Minimum relevance must be between 0 and 1'],
      [{ knowledgeSourceIds: 'all' }, 'knowledgeSourceIds', AGENT_KNOWLEDGE_TEXTS.sourceIdsInvalid],
      [{ knowledgeSourceIds: ['nope'] }, 'knowledgeSourceIds.0', AGENT_KNOWLEDGE_TEXTS.sourceIdInvalid],
      [
        { knowledgeNoAnswerMessage: 'x'.repeat(1001) },
        'knowledgeNoAnswerMessage',
        'The no-answer message must be at most 1000 characters',
      ],
      [
        { knowledgeMode: 'selected', knowledgeSourceIds: [] },
        'knowledgeSourceIds',
        'Select at least one knowledge source',
      ],
    ]
    for (const [body, field, message] of refused) {
      expect(messages(createAgentBodySchema.safeParse({ ...required, ...body })), message).toEqual({
        [field]: message,
      })
      expect(messages(patchAgentBodySchema.safeParse(body)), message).toEqual({ [field]: message })
    }
    // A create body that chooses "Selected sources" and leaves the ids out has none.
    expect(messages(createAgentBodySchema.safeParse({ ...required, knowledgeMode: 'selected' }))).toEqual({
      knowledgeSourceIds: 'Select at least one knowledge source',
    })
  })

  it('accept the bounds, an empty no-answer message, and a selection', () => {
    expect(
      createAgentBodySchema.parse({
        ...required,
        knowledgeMode: 'selected',
        knowledgeSourceIds: [id],
        knowledgePassages: 10,
        knowledgeMinRelevance: 0,
        knowledgeNoAnswerMessage: '',
      }),
    ).toMatchObject({
      knowledgeSourceIds: [id],
      knowledgePassages: 10,
      knowledgeMinRelevance: 0,
      knowledgeNoAnswerMessage: '',
    })
    // PATCH: "Selected" alone keeps the stored selection (the service checks it has one).
    expect(patchAgentBodySchema.parse({ knowledgeMode: 'selected' })).toEqual({ knowledgeMode: 'selected' })
  })

  it("the create form without the Knowledge tab takes a new agent's defaults; with it, what it posts", () => {
    expect(createAgentSchema.parse(required)).toMatchObject(AGENT_KNOWLEDGE_DEFAULTS)
    expect(
      createAgentSchema.parse({
        ...required,
        knowledgeForm: 'true',
        knowledgeMode: 'none',
        knowledgePassages: 2,
        knowledgeMinRelevance: 0.5,
      }),
    ).toMatchObject({ knowledgeMode: 'none', knowledgeSourceIds: [], knowledgeNoAnswerMessage: '' })
  })
})
