import type { LoaderFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import type { Database } from '~/db/client.server'
import type { User } from '~/db/schema'
import { IdentityError } from '~/integrations/firebase/identity.server'
import type { Endpoint, Infer } from '~/lib/api/contract'
import { REQUEST_BODY_LIMITS } from '~/lib/shared/constants'
import { findNul, NUL_MESSAGE, TOO_DEEP_MESSAGE } from '~/lib/shared/input'
import { isInvalidInput } from '~/db/errors.server'
import { userForToken } from '~/services/auth/profile.server'
import { requireOrganizationScope } from '~/services/organizations/scope.server'
import { AppError, ERROR_STATUS, isAppError } from '~/utils/errors'
import { rateLimits } from '~/http/rate-limit.server'
import { NO_ORGANIZATION_SELECTED } from '~/http/organization.server'
import { parseOrFail } from '~/utils/validation'
import { readBodyWithLimit } from '~/http/read-body.server'
import { isMultipart, readUploadForm } from '~/http/upload.server'
import { getRuntime, type Runtime } from '~/runtime/runtime.server'

export const MAX_API_BODY_BYTES = REQUEST_BODY_LIMITS.default

export type ApiCaller = { user: User; db: Database; runtime: Runtime }

/** The schema of an endpoint's multipart/form-data body, if it takes one. */
type UploadSchema<M> = M extends { schema: infer S } ? S : undefined
/** An endpoint that takes uploads gets a JSON body or (sent as multipart/form-data) a form: one of the two. */
type OrUpload<M> = M extends { schema: unknown } ? undefined : never

type HandlerInput<E extends Endpoint> = {
  params: Infer<E['params']>
  query: Infer<E['query']>
  body: Infer<E['body']> | OrUpload<E['multipart']>
  /** The parts of a multipart/form-data body, by `multipart.schema`; undefined for a JSON one. */
  form: Infer<UploadSchema<E['multipart']>> | undefined
  headers: Infer<E['headers']>
  caller: ApiCaller
  request: Request
}

/** What a handler may return where the contract says string: a Date, which JSON turns into an ISO string. */
type Serializable<T> = T extends string
  ? T | Date
  : T extends object
    ? { [K in keyof T]: Serializable<T[K]> }
    : T

export type Pagination = { page: number; pageSize: number; total: number }

/** The statuses a success of the endpoint may answer with: its own, and those its contract lists besides. */
type SuccessStatus<E extends Endpoint> =
  | (E extends { successStatus: infer S extends number } ? S : 200)
  | (E extends { otherSuccesses: infer O } ? keyof O : never)

export type ApiResult<E extends Endpoint> = {
  data: Serializable<z.output<E['response']>>
  message?: string
  pagination?: Pagination
  /** When not the endpoint's `successStatus`: one of its `otherSuccesses`. */
  status?: SuccessStatus<E>
}

export type ApiHandler<E extends Endpoint = Endpoint> = {
  endpoint: E
  run(input: HandlerInput<E>): Promise<ApiResult<E>>
}

/** Pairs an endpoint's contract with the code that serves it; the input arrives parsed by the contract. */
export function handle<E extends Endpoint>(endpoint: E, run: ApiHandler<E>['run']): ApiHandler<E> {
  return { endpoint, run }
}

type Envelope = {
  success: boolean
  data: unknown
  message: string | null
  code?: string
  errors?: unknown
  pagination?: Pagination
}

function respond(status: number, body: Envelope, headers?: HeadersInit): Response {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store', ...headers } })
}

export function apiFailure(error: AppError, headers?: HeadersInit): Response {
  const { status } = ERROR_STATUS[error.code]
  return respond(
    status,
    {
      success: false,
      data: null,
      message: error.message,
      code: error.code,
      ...(error.details ? { errors: error.details } : {}),
    },
    headers,
  )
}

/** Runtime validation has checked the value against the schema, so its output type holds. */
function parseWith<S extends z.ZodType | undefined>(schema: S, value: unknown, where: string): Infer<S> {
  if (!schema) return undefined as Infer<S>
  return parseOrFail(schema, value, where) as Infer<S>
}

/** The HTTP entry has already refused a larger body (server/request-guards.ts); this holds for any other caller. */
async function readJsonBody(request: Request): Promise<unknown> {
  const body = await readBodyWithLimit(request, MAX_API_BODY_BYTES)
  if (!body.ok) throw new AppError('PAYLOAD_TOO_LARGE', ERROR_STATUS.PAYLOAD_TOO_LARGE.message)
  const { text } = body
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    throw new AppError('VALIDATION_ERROR', 'Request body is not valid JSON')
  }
}

const TOKEN_ERRORS = new Set(['internal-error', 'NETWORK_ERROR'])

async function authenticate(request: Request, runtime: Runtime): Promise<User> {
  const header = request.headers.get('authorization') ?? ''
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  if (!match) throw new AppError('AUTH_TOKEN_MISSING', ERROR_STATUS.AUTH_TOKEN_MISSING.message)
  try {
    const token = await runtime.identity.verifyIdToken(match[1])
    return await userForToken({ db: runtime.database.db, token })
  } catch (error) {
    if (error instanceof IdentityError && !TOKEN_ERRORS.has(error.code)) {
      throw new AppError('AUTH_TOKEN_INVALID', ERROR_STATUS.AUTH_TOKEN_INVALID.message)
    }
    throw error
  }
}

function limit(limiter: keyof typeof rateLimits, key: string) {
  const verdict = rateLimits[limiter].consume(key)
  if (!verdict.allowed) {
    throw new AppError('RATE_LIMITED', ERROR_STATUS.RATE_LIMITED.message, {
      retryAfterSeconds: verdict.retryAfterSeconds,
    })
  }
}

/**
 * A resource route of the product API: rate limits, the bearer token, the contract's validation, the JSON
 * envelope `{ success, data, message }`, and one mapping from failures to status codes.
 */
export function apiRoute(...handlers: ApiHandler[]) {
  return async ({ request, params, context }: LoaderFunctionArgs): Promise<Response> => {
    const runtime = await getRuntime()
    try {
      limit('apiPerIp', context.clientIp ?? 'unknown')
      const method = request.method.toUpperCase()
      const handler = handlers.find((h) => h.endpoint.method === method)
      if (!handler) {
        return respond(
          405,
          { success: false, data: null, message: 'Method not allowed', code: 'METHOD_NOT_ALLOWED' },
          {
            Allow: handlers.map((h) => h.endpoint.method).join(', '),
          },
        )
      }
      const user = await authenticate(request, runtime)
      limit('apiPerUser', user.id)
      const { endpoint } = handler
      const url = new URL(request.url)
      const upload = endpoint.multipart && isMultipart(request) ? endpoint.multipart : undefined
      const raw = {
        params,
        query: Object.fromEntries(url.searchParams),
        body: endpoint.body && !upload ? await readJsonBody(request) : undefined,
        form: upload ? Object.fromEntries(await readUploadForm(request, upload)) : undefined,
      }
      refuseNul(raw)
      const common = {
        params: parseWith(endpoint.params, raw.params, 'params'),
        query: parseWith(endpoint.query, raw.query, 'query'),
        headers: parseWith(endpoint.headers, headersOf(request, endpoint.headers), 'headers'),
        caller: { user, db: runtime.database.db, runtime },
        request,
      }
      const input = {
        ...common,
        body: upload ? undefined : parseWith(endpoint.body, raw.body, ''),
        form: upload ? parseOrFail(upload.schema, raw.form, '') : undefined,
      }
      if (typeof params.orgId === 'string') requireSameOrganization(request, params.orgId, 'path')
      const result = await handler.run(input)
      return respond(Number(result.status ?? endpoint.successStatus ?? 200), {
        success: true,
        data: result.data ?? null,
        message: result.message ?? null,
        ...(result.pagination ? { pagination: result.pagination } : {}),
      })
    } catch (error) {
      if (isAppError(error)) {
        const retry = error.code === 'RATE_LIMITED' ? error.details?.retryAfterSeconds : undefined
        return apiFailure(error, retry ? { 'Retry-After': String(retry) } : undefined)
      }
      if (isInvalidInput(error)) {
        return apiFailure(new AppError('VALIDATION_ERROR', ERROR_STATUS.VALIDATION_ERROR.message))
      }
      runtime.logger.error('api request failed', {
        error,
        method: request.method,
        path: new URL(request.url).pathname,
        requestId: request.headers.get('x-request-id') ?? undefined,
      })
      return apiFailure(new AppError('SERVER_ERROR', ERROR_STATUS.SERVER_ERROR.message))
    }
  }
}

/** The request headers the contract names (any other is not the handler's business), by the contract's names. */
function headersOf(request: Request, schema: z.ZodObject | undefined) {
  if (!schema) return undefined
  return Object.fromEntries(
    Object.keys(schema.shape).map((name) => [name, request.headers.get(name) ?? undefined]),
  )
}

/**
 * No text anywhere in a request may hold U+0000 (PostgreSQL refuses it): a 400 naming the field, whatever the
 * endpoint's schema says.
 */
function refuseNul(raw: { params: unknown; query: unknown; body: unknown; form: unknown }) {
  const path = findNul(raw)
  if (!path) return
  if (path === 'too-deep') throw new AppError('VALIDATION_ERROR', TOO_DEEP_MESSAGE)
  const field = (path[0] === 'body' || path[0] === 'form' ? path.slice(1) : path).join('.') || 'body'
  throw new AppError('VALIDATION_ERROR', NUL_MESSAGE, { [field]: [NUL_MESSAGE] })
}

/** The caller's scope in the organization named by the path; anything else is 404. */
export function scopeOf(caller: ApiCaller, organizationId: string) {
  return requireOrganizationScope({ db: caller.db, userId: caller.user.id, organizationId })
}

/** The caller's scope in the organization of the X-Organization-Id header (calls whose path names none). */
export function headerScope(caller: ApiCaller, request: Request) {
  const organizationId = request.headers.get('x-organization-id')?.trim()
  if (!organizationId) throw new AppError('VALIDATION_ERROR', NO_ORGANIZATION_SELECTED)
  return scopeOf(caller, organizationId)
}

/** The caller's scope in an organization named in the body; the header, when sent, must name the same one. */
export function bodyScope(caller: ApiCaller, request: Request, organizationId: string) {
  requireSameOrganization(request, organizationId, 'body')
  return scopeOf(caller, organizationId)
}

/** A request that names its organization twice (path or body, and the header) must name one. */
function requireSameOrganization(request: Request, organizationId: string, where: 'path' | 'body') {
  const headerOrg = request.headers.get('x-organization-id')?.trim()
  if (headerOrg && headerOrg !== organizationId) {
    throw new AppError(
      'VALIDATION_ERROR',
      `X-Organization-Id does not match the organization in the ${where}`,
    )
  }
}
