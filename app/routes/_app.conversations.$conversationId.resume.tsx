import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { z } from 'zod'
import { ConversationAnswer } from '~/components/conversations/conversation-answer'
import { conversationAction } from '~/http/conversation-actions.server'
import { resumeConversation } from '~/services/conversations/takeover.server'

/** "Resume AI". */
export async function action({ request, params }: ActionFunctionArgs) {
  const conversationId = params.conversationId ?? ''
  return conversationAction(request, z.object({}), (scope) => resumeConversation(scope, conversationId), {
    action: 'resume AI',
    conversationId,
  })
}

export default function Resumed() {
  return <ConversationAnswer answer={useActionData<typeof action>()} />
}
