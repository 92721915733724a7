import { describe, expect, it } from 'vitest'
import { AGENT_BEHAVIOUR_DEFAULTS } from '~/lib/agent-behaviour'
import { AGENT_DEFAULTS } from '~/lib/agent-schemas'
import { endpoints } from './endpoints'
import { buildOpenApiDocument } from './openapi'

type Schema = { properties: Record<string, { default?: unknown }>; required?: string[] }

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
    expect(defaults).toEqual({ ...AGENT_DEFAULTS, ...AGENT_BEHAVIOUR_DEFAULTS })
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

  it('lists every endpoint of every resource file once', () => {
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods))
    expect(operations).toHaveLength(Object.keys(endpoints).length)
  })
})
