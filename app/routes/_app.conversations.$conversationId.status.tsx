import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { ConversationAnswer } from '~/components/conversations/conversation-answer'
import { conversationAction } from '~/http/conversation-actions.server'
import { statusFormSchema } from '~/lib/conversations/conversations'
import { setConversationStatus } from '~/services/conversations/status.server'

/** "Resolve", "Reopen" and "Snooze" (docs/decisions/054, 058). */
export async function action({ request, params }: ActionFunctionArgs) {
  const conversationId = params.conversationId ?? ''
  return conversationAction(
    request,
    statusFormSchema,
    (scope, { status, snoozeMinutes }) => setConversationStatus(scope, conversationId, status, snoozeMinutes),
    { action: 'set status', conversationId },
  )
}

export default function StatusChanged() {
  return <ConversationAnswer answer={useActionData<typeof action>()} />
}
