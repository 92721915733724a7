import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { ConversationAnswer } from '~/components/conversations/conversation-answer'
import { conversationAction } from '~/http/conversation-actions.server'
import { labelsFormSchema } from '~/lib/conversations/conversations'
import { setConversationLabels } from '~/services/conversations/labels.server'

/** The conversation's labels, separated by commas (docs/decisions/060). */
export async function action({ request, params }: ActionFunctionArgs) {
  const conversationId = params.conversationId ?? ''
  return conversationAction(
    request,
    labelsFormSchema,
    (scope, { labels }) => setConversationLabels(scope, conversationId, labels),
    { action: 'set labels', conversationId },
  )
}

export default function LabelsSaved() {
  return <ConversationAnswer answer={useActionData<typeof action>()} />
}
