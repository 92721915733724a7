import type { z } from 'zod'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * One endpoint of the product API: its path, and the zod schemas that both validate requests at the edge and
 * produce the OpenAPI document. A route cannot take input its contract does not describe.
 */
export type Endpoint = {
  method: HttpMethod
  /** Where `path` starts: /api/v1 unless said (the spec's Facebook calls live under /api/facebook). */
  base?: '/api/v1' | '/api'
  /** OpenAPI form, below `base`: /organizations/{orgId} */
  path: string
  operationId: string
  summary: string
  tag: string
  params?: z.ZodType
  query?: z.ZodType
  body?: z.ZodType
  /**
   * A multipart/form-data body the endpoint takes instead of `body` (an upload): its parts by name, a file part
   * as a File. Read no further than `maxPartBytes` per part; a larger part is a 413.
   */
  multipart?: { schema: z.ZodObject; maxPartBytes: number; tooLarge: string }
  /** Request headers the endpoint reads, by name (`Idempotency-Key`); documented as header parameters. */
  headers?: z.ZodObject
  response: z.ZodType
  successStatus?: number
  /** Other statuses a success may answer with, the same body, and when (a replayed request's 200). */
  otherSuccesses?: Record<number, string>
  /** Endpoints that need no organization (profile, organization list and creation). */
  public?: boolean
  /** The organization comes from the X-Organization-Id header alone (the platforms and Facebook calls). */
  organizationHeader?: 'required'
}

export type Infer<S> = S extends z.ZodType ? z.output<S> : undefined

export function defineEndpoint<const E extends Endpoint>(endpoint: E): E {
  return endpoint
}
