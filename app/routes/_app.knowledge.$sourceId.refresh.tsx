import { data, redirect, type ActionFunctionArgs } from '@remix-run/node'
import { KNOWLEDGE_PATH } from '~/components/knowledge/paths'
import { ERROR_STATUS } from '~/utils/errors'
import { refreshKnowledgeSource } from '~/services/knowledge/sources.server'
import { knowledgeDeps } from '~/http/knowledge.server'
import { attemptInScope, getCurrentScope } from '~/http/organization.server'

/**
 * "Fetch again" / "Process again" from a row of the list: a fetcher's post once hydrated (the list reloads after
 * it); without JavaScript the list again, the source now processing.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const sourceId = params.sourceId ?? ''
  const formData = await request.formData()
  const deps = await knowledgeDeps()
  const outcome = await attemptInScope(
    scope,
    (s) => refreshKnowledgeSource(s, sourceId, deps),
    ERROR_STATUS.SERVER_ERROR.message,
    { action: 'refresh knowledge', sourceId },
  )
  if (!outcome.ok) return data({ refreshed: null, error: outcome.failure.reason }, outcome.failure.status)
  if (formData.has('noscript')) return redirect(KNOWLEDGE_PATH)
  return { refreshed: { id: sourceId }, error: null }
}

/** A child route without a dialog: the list stays as it is. */
export default function Refreshed() {
  return null
}
