import { data } from '@remix-run/node'
import type { z } from 'zod'
import { firstMessage } from '~/lib/shared/form-reply'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { attemptInScope, getCurrentScope } from './organization.server'

/**
 * An action of the open conversation (reply, pause, resume, retry): the form parsed by `schema`, then `call` in
 * the session's organization. The answer says why it was refused (`error`) and gives the reply's text back, so
 * that a page rendered without JavaScript shows the composer as it was; `error: null` when it went through.
 */
export async function conversationAction<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  call: (scope: OrganizationScope, value: z.output<Schema>) => Promise<unknown>,
  context: Record<string, unknown>,
) {
  const form = await request.formData()
  const text = typeof form.get('text') === 'string' ? String(form.get('text')) : undefined
  const parsed = schema.safeParse(Object.fromEntries(form))
  if (!parsed.success) {
    const errors: Record<string, string[]> = {}
    for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? '')] ??= []).push(issue.message)
    return data({ error: firstMessage(errors) ?? 'Invalid request data', text }, 400)
  }
  const scope = await getCurrentScope(request)
  const outcome = await attemptInScope(
    scope,
    (s) => call(s, parsed.data),
    'The change could not be made. Please try again.',
    context,
  )
  return outcome.ok
    ? data({ error: null, text: undefined })
    : data({ error: outcome.failure.reason, text }, outcome.failure.status)
}
