import type { LoaderFunctionArgs } from '@remix-run/node'
import { getCurrentScope } from '~/http/organization.server'
import { readListQuery } from '~/lib/conversations/list-query'
import { textStream } from '~/lib/shared/csv'
import { conversationsCsv } from '~/services/conversations/export.server'

/**
 * The inbox's list under its filters (the list's own query string) as a CSV file, streamed as it is read
 * (docs/decisions/056). A signed-out visitor is sent to sign in; no organization: 404.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  if (!scope) return new Response('No organization selected', { status: 404 })
  const { page: _page, pageSize: _pageSize, ...filters } = readListQuery(new URL(request.url).searchParams)
  const day = new Date().toISOString().slice(0, 10)
  return new Response(textStream(conversationsCsv(scope, filters)), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="conversations-${day}.csv"`,
      'Cache-Control': 'private, no-store',
    },
  })
}
