import { z } from 'zod'
import { PRODUCT_NAME, PRODUCT_VERSION } from '~/lib/shared/constants'
import type { Endpoint } from './contract'

const API_BASE = '/api/v1'

const envelope = (data: Record<string, unknown>) => ({
  type: 'object',
  required: ['success', 'data', 'message'],
  properties: { success: { type: 'boolean' }, data, message: { type: ['string', 'null'] } },
})

const failure = (description: string) => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['success', 'data', 'message', 'code'],
        properties: {
          success: { const: false },
          data: { type: 'null' },
          message: { type: 'string' },
          code: { type: 'string' },
          errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        },
      },
    },
  },
})

/** A JSON Schema for OpenAPI 3.1 (draft 2020-12), without the $schema key OpenAPI does not want inline. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output') {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' })
  return rest
}

type Parameter = {
  name: string
  in: 'path' | 'query' | 'header'
  required: boolean
  description?: string
  schema: unknown
}

function parameters(schema: z.ZodType | undefined, where: Parameter['in']): Parameter[] {
  if (!schema) return []
  const json = jsonSchema(schema, 'input')
  const properties = json.properties ?? {}
  const required = new Set(Array.isArray(json.required) ? json.required : [])
  return Object.entries(properties).map(([name, property]) => {
    const description = typeof property === 'object' ? property.description : undefined
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description ? { description } : {}),
      schema: property,
    }
  })
}

/** The OpenAPI 3.1 document of the product API, made from the same zod contracts the routes validate with. */
export function buildOpenApiDocument(endpoints: Record<string, Endpoint>, serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const e of Object.values(endpoints)) {
    const parameterList: Parameter[] = [
      ...parameters(e.params, 'path'),
      ...parameters(e.query, 'query'),
      ...parameters(e.headers, 'header'),
    ]
    if (!e.public) {
      parameterList.push({
        name: 'X-Organization-Id',
        in: 'header',
        required: e.organizationHeader === 'required',
        schema: { type: 'string' },
      })
    }
    const status = String(e.successStatus ?? 200)
    const success = (description: string) => ({
      description,
      content: { 'application/json': { schema: envelope(jsonSchema(e.response, 'output')) } },
    })
    const path = `${e.base ?? API_BASE}${e.path}`
    paths[path] ??= {}
    paths[path][e.method.toLowerCase()] = {
      operationId: e.operationId,
      summary: e.summary,
      tags: [e.tag],
      security: [{ firebaseIdToken: [] }],
      parameters: parameterList,
      ...(e.body
        ? {
            requestBody: {
              // A body the contract accepts left out (all its fields optional, as "pause" without minutes).
              required: !e.body.safeParse(undefined).success,
              content: {
                'application/json': { schema: jsonSchema(e.body, 'input') },
                ...(e.multipart
                  ? { 'multipart/form-data': { schema: jsonSchema(e.multipart.schema, 'input') } }
                  : {}),
              },
            },
          }
        : {}),
      responses: {
        [status]: success('Success'),
        ...Object.fromEntries(
          Object.entries(e.otherSuccesses ?? {}).map(([other, description]) => [other, success(description)]),
        ),
        '400': failure('VALIDATION_ERROR: the request does not match the contract'),
        '401': failure('AUTH_TOKEN_INVALID: Authentication token is invalid or expired'),
        '403': failure('AUTH_TOKEN_MISSING, or not allowed for this role'),
        '404': failure('Not found, or not in an organization of the caller'),
        ...(e.multipart ? { '413': failure(`PAYLOAD_TOO_LARGE: ${e.multipart.tooLarge}`) } : {}),
        '429': failure('RATE_LIMITED: Rate limit exceeded (see Retry-After)'),
        '500': failure('SERVER_ERROR: Internal server error'),
      },
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: `${PRODUCT_NAME} API`, version: PRODUCT_VERSION },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        firebaseIdToken: { type: 'http', scheme: 'bearer', bearerFormat: 'Firebase ID token' },
      },
    },
    paths,
  }
}
