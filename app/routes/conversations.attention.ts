import type { LoaderFunctionArgs } from '@remix-run/node'
import { getCurrentScope } from '~/http/organization.server'
import { countNeedingAttention } from '~/services/conversations/inbox.server'

/**
 * How many of the session's organization's conversations need a person now, as JSON `{ count }`: the sidebar
 * reads it again when the inbox's event stream says a conversation changed (docs/decisions/055). Signed out: the
 * sign-in redirect, as every page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  const count = scope ? await countNeedingAttention(scope.db, scope.organizationId) : 0
  return Response.json({ count }, { headers: { 'Cache-Control': 'private, no-store' } })
}
