import type { LoaderFunctionArgs } from '@remix-run/node'
import { fileResponse } from '~/http/file-response.server'
import { getCurrentScope } from '~/http/organization.server'
import { CONVERSATION_TEXTS } from '~/lib/conversations/conversations'
import { getMessageFile } from '~/services/conversations/media.server'
import { isAppError } from '~/utils/errors'

/**
 * A customer's voice note, photo or file, for the inbox to play or show (docs/decisions/074). Another
 * organization's, or one not fetched: 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  if (!scope) return new Response(CONVERSATION_TEXTS.notFound, { status: 404 })
  try {
    const file = await getMessageFile(scope, params.conversationId ?? '', params.messageId ?? '')
    return fileResponse(request, file)
  } catch (error) {
    if (isAppError(error, 'NOT_FOUND')) return new Response(CONVERSATION_TEXTS.notFound, { status: 404 })
    throw error
  }
}
