import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { ConversationAnswer } from '~/components/conversations/conversation-answer'
import { conversationAction } from '~/http/conversation-actions.server'
import { contactNotesFormSchema } from '~/lib/conversations/contact'
import { setContactNotes } from '~/services/conversations/contact.server'

/** The team's notes on the customer, from the contact panel (docs/decisions/062). */
export async function action({ request, params }: ActionFunctionArgs) {
  const conversationId = params.conversationId ?? ''
  return conversationAction(
    request,
    contactNotesFormSchema,
    (scope, { notes }) => setContactNotes(scope, conversationId, notes),
    { action: 'set contact notes', conversationId },
  )
}

export default function ContactSaved() {
  return <ConversationAnswer answer={useActionData<typeof action>()} />
}
