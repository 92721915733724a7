import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { ConversationAnswer } from '~/components/conversations/conversation-answer'
import { conversationAction } from '~/http/conversation-actions.server'
import { assignFormSchema } from '~/lib/conversations/conversations'
import { assignConversation } from '~/services/conversations/assignment.server'

/** "Assign to" a member, to me (the key a), or to nobody (docs/decisions/057). */
export async function action({ request, params }: ActionFunctionArgs) {
  const conversationId = params.conversationId ?? ''
  return conversationAction(
    request,
    assignFormSchema,
    (scope, { assigneeUid }) => assignConversation(scope, conversationId, assigneeUid),
    { action: 'assign', conversationId },
  )
}

export default function Assigned() {
  return <ConversationAnswer answer={useActionData<typeof action>()} />
}
