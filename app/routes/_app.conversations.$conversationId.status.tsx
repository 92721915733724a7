import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { ConversationAnswer } from '~/components/conversations/conversation-answer'
import { conversationAction } from '~/http/conversation-actions.server'
import { statusChangeSchema } from '~/lib/conversations/conversations'
import { setConversationStatus } from '~/services/conversations/status.server'

/** "Resolve" and "Reopen" (docs/decisions/054). */
export async function action({ request, params }: ActionFunctionArgs) {
  const conversationId = params.conversationId ?? ''
  return conversationAction(
    request,
    statusChangeSchema,
    (scope, { status }) => setConversationStatus(scope, conversationId, status),
    { action: 'set status', conversationId },
  )
}

export default function StatusChanged() {
  return <ConversationAnswer answer={useActionData<typeof action>()} />
}
