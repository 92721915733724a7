import { randomUUID } from 'node:crypto'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Paper, Text } from '@mantine/core'
import { isRouteErrorResponse, useLoaderData, useOutlet, useRouteError } from '@remix-run/react'
import { ConversationView } from '~/components/conversations/conversation-view'
import { CONVERSATION_UI_TEXTS as T } from '~/components/conversations/texts'
import { PRODUCT_NAME } from '~/lib/shared/constants'
import {
  MAX_SHOWN_MESSAGES,
  MESSAGE_PAGE_SIZE,
  personReplyAvailability,
} from '~/lib/conversations/conversations'
import { getCurrentScope } from '~/http/organization.server'
import { getContact } from '~/services/conversations/contact.server'
import { listAssignableMembers } from '~/services/conversations/assignment.server'
import { getConversation, markConversationRead } from '~/services/conversations/inbox.server'
import { listSavedReplies } from '~/services/conversations/saved-replies.server'
import { isAppError } from '~/utils/errors'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.conversation.customer.name ?? 'Conversation'} · ${PRODUCT_NAME}` },
]

/**
 * The conversation with its latest messages (`show` of them: "Load older messages" asks for more), its customer
 * (docs/decisions/062), the members it
 * can be assigned to, the saved replies, whether a person may write now, and the composer's idempotency key.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  if (!scope) throw new Response(T.notFound, { status: 404 })
  const show = Number(new URL(request.url).searchParams.get('show'))
  const limit = Number.isInteger(show) && show > 0 ? Math.min(show, MAX_SHOWN_MESSAGES) : MESSAGE_PAGE_SIZE
  try {
    const [conversation, contact, members, savedReplies] = await Promise.all([
      getConversation(scope, params.conversationId ?? '', { limit }),
      getContact(scope, params.conversationId ?? ''),
      listAssignableMembers(scope),
      listSavedReplies(scope),
    ])
    // Seen by this member as it is now (again at each live reload while it is open): not unread in the list.
    await markConversationRead(scope, conversation.id)
    return {
      conversation,
      contact,
      members,
      savedReplies,
      replyWindow: personReplyAvailability(conversation),
      composerKey: randomUUID(),
    }
  } catch (error) {
    if (isAppError(error, 'NOT_FOUND')) throw new Response(T.notFound, { status: 404 })
    throw error
  }
}

/**
 * The open conversation. Its actions post to the routes below it (reply, pause, resume, retry); without
 * JavaScript the page then shown is one of those, which renders the conversation with its answer.
 */
export default function ConversationRoute() {
  const data = useLoaderData<typeof loader>()
  return useOutlet(data) ?? <ConversationView {...data} />
}

export function ErrorBoundary() {
  const error = useRouteError()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <Paper withBorder p="xl" role="alert">
      <Text fw={600}>{notFound ? T.notFound : 'This conversation could not be loaded.'}</Text>
      {notFound ? null : <Text c="gray.7">Reload the page to try again.</Text>}
    </Paper>
  )
}
