import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { ConversationAnswer } from '~/components/conversations/conversation-answer'
import { conversationAction } from '~/http/conversation-actions.server'
import { getRuntime } from '~/runtime/runtime.server'
import { conversationDeps } from '~/runtime/channel-deps.server'
import { composerSchema } from '~/lib/conversations/conversations'
import { sendPersonReply } from '~/services/conversations/person-reply.server'

/** The composer: a person's reply, with a picture or a document if attached, sent once per idempotency key. */
export async function action({ request, params }: ActionFunctionArgs) {
  const conversationId = params.conversationId ?? ''
  const deps = conversationDeps(await getRuntime())
  return conversationAction(
    request,
    composerSchema,
    async (scope, { text, clientKey, attachment }) =>
      sendPersonReply(scope, deps, {
        conversationId,
        text,
        clientKey,
        attachment: attachment && {
          bytes: new Uint8Array(await attachment.arrayBuffer()),
          fileName: attachment.name,
        },
      }),
    { action: 'person reply', conversationId },
  )
}

export default function ReplySent() {
  return <ConversationAnswer answer={useActionData<typeof action>()} />
}
