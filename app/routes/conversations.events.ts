import type { LoaderFunctionArgs } from '@remix-run/node'
import { eventStream } from '~/http/event-stream.server'
import { getCurrentScope } from '~/http/organization.server'
import { INBOX_LIVE } from '~/lib/conversations/conversations'
import { getRuntime } from '~/runtime/runtime.server'

/**
 * The inbox's live updates for the session's current organization, as server-sent events (docs/decisions/037):
 * `conversation` names a conversation that changed, `notification` says the member has a new one, `resync` says changes may have been missed. Signed out: the
 * sign-in redirect, as every page; no organization: 204, which tells EventSource not to reconnect.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  if (!scope) return new Response(null, { status: 204 })
  const { inboxEvents } = await getRuntime()
  return eventStream(
    request.signal,
    (sink) =>
      inboxEvents.subscribe(scope.organizationId, (event) => {
        if (event.type === 'conversation') sink.send('conversation', { conversationId: event.conversationId })
        else if (event.type === 'notification') {
          // Only the member's own: the others' are not theirs to know of.
          if (event.userId === scope.userId) sink.send('notification', {})
        } else if (event.type === 'resync') sink.send('resync', {})
        else sink.close()
      }),
    { heartbeatMs: INBOX_LIVE.heartbeatMs, retryMs: INBOX_LIVE.retryMs },
  )
}
