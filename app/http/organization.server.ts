import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import { z } from 'zod'
import { firstMessage } from '~/lib/shared/form-reply'
import { resolveCurrentOrganization } from '~/services/organizations/organizations.server'
import { requireOrganizationScope, type OrganizationScope } from '~/services/organizations/scope.server'
import { requireSignedIn } from '~/http/auth.server'
import { ERROR_STATUS, isAppError, nullIfNotFound } from '~/utils/errors'
import { getRuntime } from '~/runtime/runtime.server'

export const NO_ORGANIZATION_SELECTED = 'No organization selected'

/**
 * The signed-in user's scope in the session's current organization, for page loaders and actions; undefined
 * while the user has no organization (the page then says "No organization selected").
 */
export async function getCurrentScope(request: Request): Promise<OrganizationScope | undefined> {
  const { user, session } = await requireSignedIn(request)
  const { database } = await getRuntime()
  const { current } = await resolveCurrentOrganization({
    db: database.db,
    userId: user.id,
    sessionId: session.id,
    storedId: session.currentOrganizationId,
  })
  if (!current) return undefined
  return requireOrganizationScope({ db: database.db, userId: user.id, organizationId: current.id })
}

/**
 * What a dialog route's loader shows: `find` run in the session's current organization, or null when there is no
 * organization or nothing was found (the dialog then says so).
 */
export async function findInCurrentScope<T>(
  request: Request,
  find: (scope: OrganizationScope) => Promise<T>,
): Promise<T | null> {
  const scope = await getCurrentScope(request)
  return scope ? find(scope).catch(nullIfNotFound) : null
}

const fieldErrorsSchema = z.record(z.string(), z.array(z.string()))

export type PageFailure = { status: number; reason: string; fieldErrors?: Record<string, string[]> }

/**
 * Runs a page action's service call in the session's organization. A failure becomes what the user is told: a
 * status, the service's message (or `fallback`, the spec's words, for a failure the service did not mean to
 * report, which is logged) and field errors when the service names fields.
 */
export async function attemptInScope<T>(
  scope: OrganizationScope | undefined,
  call: (scope: OrganizationScope) => Promise<T>,
  fallback: string,
  context: Record<string, unknown>,
): Promise<{ ok: true; value: T } | { ok: false; failure: PageFailure }> {
  if (!scope) return { ok: false, failure: { status: 403, reason: NO_ORGANIZATION_SELECTED } }
  try {
    return { ok: true, value: await call(scope) }
  } catch (error) {
    if (isAppError(error)) {
      const fieldErrors = fieldErrorsSchema.safeParse(error.details)
      return {
        ok: false,
        failure: {
          status: ERROR_STATUS[error.code].status,
          reason: error.message,
          fieldErrors: fieldErrors.data,
        },
      }
    }
    const { logger } = await getRuntime()
    logger.error('page action failed', { error, ...context })
    return { ok: false, failure: { status: 500, reason: fallback } }
  }
}

/**
 * A change made from a dialog that reports in one line, for the dialog's `section` that made it: the form parsed
 * by `schema`, then `call` in the session's organization; `succeeded` (the spec's text, or null when it has none)
 * when it went through, else why not (the form's first error, or `failed` for an unexpected failure).
 */
export async function changeInCurrentScope<Section extends string, Schema extends z.ZodType, Result>(
  request: Request,
  {
    section,
    schema,
    succeeded,
    failed,
    told,
  }: {
    section: Section
    schema: Schema
    succeeded: string | null
    failed: string
    /** What else the answer says, from the change's result: a line under the message, or a warning. */
    told?: (result: Result) => ChangeTold
  },
  call: (scope: OrganizationScope, value: z.output<Schema>) => Promise<Result>,
  context: Record<string, unknown>,
) {
  const scope = await getCurrentScope(request)
  const submission = parseWithZod(await request.formData(), { schema })
  if (submission.status !== 'success') {
    return data({ section, message: null, error: firstMessage(submission.error) ?? failed }, 400)
  }
  const outcome = await attemptInScope(scope, (s) => call(s, submission.value), failed, context)
  return outcome.ok
    ? data({ section, message: succeeded, error: null, ...told?.(outcome.value) })
    : data({ section, message: null, error: outcome.failure.reason }, outcome.failure.status)
}

export type ChangeTold = { note?: string | null; warning?: string | null }
