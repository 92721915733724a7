import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { z } from 'zod'
import { ConversationAnswer } from '~/components/conversations/conversation-answer'
import { conversationAction } from '~/http/conversation-actions.server'
import { getRuntime } from '~/runtime/runtime.server'
import { conversationDeps } from '~/runtime/channel-deps.server'
import { idSchema } from '~/lib/shared/input'
import { retryMessage } from '~/services/conversations/person-reply.server'

const retrySchema = z.object({ messageId: idSchema })

/** "Send again" on a failed reply. */
export async function action({ request, params }: ActionFunctionArgs) {
  const deps = conversationDeps(await getRuntime())
  return conversationAction(
    request,
    retrySchema,
    (scope, { messageId }) => retryMessage(scope, deps, messageId),
    {
      action: 'retry reply',
      conversationId: params.conversationId,
    },
  )
}

export default function RetrySent() {
  return <ConversationAnswer answer={useActionData<typeof action>()} />
}
