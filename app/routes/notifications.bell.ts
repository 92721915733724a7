import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { getCurrentScope } from '~/http/organization.server'
import { notificationReadSchema } from '~/lib/notifications/notifications'
import { listNotifications, markNotificationsRead } from '~/services/notifications/bell.server'

// The bell's JSON (docs/decisions/068): read with the browser's own fetch, not a Remix fetcher, so that a page
// navigation starting meanwhile cannot turn its route lookup into an error page (see useNotificationBell).

const NO_STORE = { 'Cache-Control': 'private, no-store' }

/** The member's latest notifications in the session's organization, and the unread count, as JSON. */
export async function loader({ request }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  const bell = scope ? await listNotifications(scope) : { items: [], unread: 0 }
  return Response.json(bell, { headers: NO_STORE })
}

/** Marks one notification read (as it is followed) or all; answers the unread count. */
export async function action({ request }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const parsed = notificationReadSchema.safeParse(Object.fromEntries(await request.formData()))
  if (!parsed.success) throw data({ error: 'Invalid request' }, 400)
  const result = scope
    ? await markNotificationsRead(scope, parsed.data.intent === 'read' ? [parsed.data.id] : 'all')
    : { unread: 0 }
  return Response.json(result, { headers: NO_STORE })
}
