import { describe, expect, it } from 'vitest'
import { AGENT_BEHAVIOUR_DEFAULTS } from '~/lib/agents/behaviour'
import { AGENT_LANGUAGE_DEFAULTS, LANGUAGE_DESCRIPTIONS } from '~/lib/agents/agent-language'
import { KNOWLEDGE_DESCRIPTIONS } from '~/lib/agents/knowledge'
import { AGENT_DEFAULTS } from '~/lib/agents/schemas'
import { AGENT_KNOWLEDGE_DEFAULTS } from '~/lib/knowledge/knowledge'
import { endpoints } from './endpoints'
import { buildOpenApiDocument } from './openapi'

type Property = {
  default?: unknown
  description?: string
  enum?: unknown[]
  minimum?: number
  maximum?: number
}
type Schema = { properties: Record<string, Property>; required?: string[] }

const document = buildOpenApiDocument(endpoints, 'http://localhost')
const bodyOf = (path: string, method: string): Schema => {
  const operation = document.paths[`/api/v1${path}`][method] as {
    requestBody: { content: { 'application/json': { schema: Schema } } }
  }
  return operation.requestBody.content['application/json'].schema
}

describe('the OpenAPI document', () => {
  it("shows the agent defaults (the spec's and a new agent's behaviour) and that only name, readableId and systemPrompt are required on create", () => {
    const create = bodyOf('/organizations/{orgId}/agents', 'post')
    expect(create.required?.sort()).toEqual(['name', 'readableId', 'systemPrompt'])
    const defaults = Object.fromEntries(
      Object.entries(create.properties)
        .filter(([, property]) => 'default' in property)
        .map(([name, property]) => [name, property.default]),
    )
    expect(defaults).toEqual({
      ...AGENT_DEFAULTS,
      ...AGENT_BEHAVIOUR_DEFAULTS,
      ...AGENT_KNOWLEDGE_DEFAULTS,
      ...AGENT_LANGUAGE_DEFAULTS,
    })
  })

  it("describes an agent's language fields, on create, PATCH and the agent read, with the languages offered", () => {
    const create = bodyOf('/organizations/{orgId}/agents', 'post')
    const patch = bodyOf('/organizations/{orgId}/agents/{agentId}', 'patch')
    for (const [field, description] of Object.entries(LANGUAGE_DESCRIPTIONS)) {
      expect(create.properties[field].description, field).toBe(description)
      expect(patch.properties[field].description, field).toBe(description)
    }
    expect(JSON.stringify(create.properties.replyLanguage)).toContain('"es"')
    const read = JSON.stringify(document.paths['/api/v1/organizations/{orgId}/agents/{agentId}'].get)
    expect(read).toContain(LANGUAGE_DESCRIPTIONS.replyLanguage)
  })

  it('describes each knowledge field of an agent, and what a test run used of the knowledge', () => {
    const create = bodyOf('/organizations/{orgId}/agents', 'post')
    for (const [field, description] of Object.entries(KNOWLEDGE_DESCRIPTIONS)) {
      expect(create.properties[field].description, field).toBe(description)
    }
    expect(create.properties.knowledgeMode.enum).toEqual(['all', 'selected', 'none'])
    expect(create.properties.knowledgePassages).toMatchObject({ minimum: 1, maximum: 10 })
    const run = JSON.stringify(document.paths['/api/v1/organizations/{orgId}/agents/{agentId}/run'].post)
    expect(run).toContain('"miss"')
    expect(run).toContain('"passages"')
  })

  it('every PATCH body has no required field', () => {
    expect(bodyOf('/organizations/{orgId}/agents/{agentId}', 'patch').required ?? []).toEqual([])
    expect(bodyOf('/organizations/{orgId}/channels/{channelId}', 'patch').required ?? []).toEqual([])
    expect(bodyOf('/organizations/{orgId}', 'patch').required ?? []).toEqual([])
  })

  it("documents a person's reply's Idempotency-Key header and its replay's 200, and a pause without a body", () => {
    const conversation = '/api/v1/organizations/{orgId}/conversations/{conversationId}'
    const send = document.paths[`${conversation}/messages`].post as {
      parameters: { name: string; in: string; required: boolean }[]
      responses: Record<string, unknown>
    }
    expect(send.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
    )
    expect(Object.keys(send.responses)).toEqual(expect.arrayContaining(['200', '201']))
    const pause = document.paths[`${conversation}/pause`].post as { requestBody: { required: boolean } }
    expect(pause.requestBody.required).toBe(false)
    const create = document.paths['/api/v1/organizations/{orgId}/agents'].post as typeof pause
    expect(create.requestBody.required).toBe(true)
  })

  it("documents a knowledge upload as multipart/form-data beside the JSON body, its 413, and the refresh's 202", () => {
    const knowledge = '/api/v1/organizations/{orgId}/knowledge'
    const create = document.paths[knowledge].post as {
      requestBody: { content: Record<string, { schema: Schema }> }
      responses: Record<string, unknown>
    }
    expect(Object.keys(create.requestBody.content)).toEqual(['application/json', 'multipart/form-data'])
    const form = create.requestBody.content['multipart/form-data'].schema
    expect(form.required).toEqual(['file'])
    expect(form.properties.file).toMatchObject({ type: 'string', format: 'binary' })
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '413']))
    const refresh = document.paths[`${knowledge}/{sourceId}/refresh`].post as typeof create
    expect(Object.keys(refresh.responses)).toContain('202')
    // The static segment is its own path, not a source id.
    expect(document.paths[`${knowledge}/search`].post).toBeDefined()
  })

  it('lists every endpoint of every resource file once', () => {
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods))
    expect(operations).toHaveLength(Object.keys(endpoints).length)
  })
})
