import type { LoaderFunctionArgs } from '@remix-run/node'
import { getCurrentScope } from '~/http/organization.server'
import { CONVERSATION_TEXTS } from '~/lib/conversations/conversations'
import { textStream } from '~/lib/shared/csv'
import { conversationTranscript } from '~/services/conversations/export.server'
import { isAppError } from '~/utils/errors'

/**
 * One conversation as a text file, a line per message, streamed as it is read (docs/decisions/056). Another
 * organization's conversation, or none: 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  if (!scope) return new Response(CONVERSATION_TEXTS.notFound, { status: 404 })
  try {
    const { customer, lines } = await conversationTranscript(scope, params.conversationId ?? '')
    const name = customer.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || 'conversation'
    return new Response(textStream(lines), {
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(`${name}.txt`)}`,
        'Cache-Control': 'private, no-store',
      },
    })
  } catch (error) {
    if (isAppError(error, 'NOT_FOUND')) return new Response(CONVERSATION_TEXTS.notFound, { status: 404 })
    throw error
  }
}
