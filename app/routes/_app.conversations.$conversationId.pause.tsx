import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { ConversationAnswer } from '~/components/conversations/conversation-answer'
import { conversationAction } from '~/http/conversation-actions.server'
import { getRuntime } from '~/runtime/runtime.server'
import { conversationDeps } from '~/runtime/channel-deps.server'
import { pauseSchema } from '~/lib/conversations/conversations'
import { pauseConversation } from '~/services/conversations/takeover.server'

/** "Pause AI": until resumed, or for the minutes given. */
export async function action({ request, params }: ActionFunctionArgs) {
  const conversationId = params.conversationId ?? ''
  const { scheduleResume } = conversationDeps(await getRuntime())
  return conversationAction(
    request,
    pauseSchema,
    (scope, pause) => pauseConversation(scope, conversationId, pause, scheduleResume),
    { action: 'pause AI', conversationId },
  )
}

export default function Paused() {
  return <ConversationAnswer answer={useActionData<typeof action>()} />
}
