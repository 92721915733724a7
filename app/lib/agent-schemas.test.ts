import { describe, expect, it } from 'vitest'
import { AGENT_BEHAVIOUR_DEFAULTS } from './agent-behaviour'
import {
  AGENT_DEFAULTS,
  createAgentBodySchema,
  createAgentSchema,
  patchAgentBodySchema,
  READABLE_ID_IMMUTABLE,
  updateAgentSchema,
} from './agent-schemas'

const required = { name: 'Support Bot', readableId: 'support-bot', systemPrompt: 'You are a helpful agent.' }

const messages = (result: {
  success: boolean
  error?: { issues: { path: PropertyKey[]; message: string }[] }
}) => Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]))

describe('the agent create body', () => {
  it("takes the spec defaults (section 9) and a new agent's behaviour (issue #17) for every field left out", () => {
    expect(createAgentBodySchema.parse(required)).toEqual({
      ...required,
      ...AGENT_DEFAULTS,
      ...AGENT_BEHAVIOUR_DEFAULTS,
    })
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
