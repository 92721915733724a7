import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { z } from 'zod'
import { ChannelChangeAnswer } from '~/components/channels/channel-change-answer'
import { changeInCurrentScope } from '~/http/organization.server'
import { assignSchema, autoResumeMinutesSchema } from '~/lib/conversations/conversations'
import { updateChannel } from '~/services/channels/channels.server'

// A form field is text: a number of it, an empty one left for the schema to refuse.
const handBackSchema = z.object({
  autoResumeMinutes: z.preprocess(
    (value) => (value === '' ? undefined : Number(value)),
    autoResumeMinutesSchema,
  ),
  // "Nobody" is an empty choice; a form without the field leaves the default assignee as it is.
  defaultAssigneeUid: z
    .string()
    .optional()
    .transform((value) => (value === undefined ? undefined : value.trim() || null))
    .pipe(assignSchema.shape.assigneeUid.optional()),
})

/**
 * The Conversations section of the Channel Details dialog: when the AI answers again after a person's reply, and
 * who gets the conversations that need a person.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const channelId = params.channelId ?? ''
  return changeInCurrentScope(
    request,
    {
      section: 'conversations',
      schema: handBackSchema,
      succeeded: 'Saved',
      failed: 'The setting could not be saved. Please try again.',
    },
    (scope, value) => updateChannel(scope, channelId, value),
    { action: 'set hand-back', channelId },
  )
}

export default function HandBackSaved() {
  return <ChannelChangeAnswer answer={useActionData<typeof action>()} />
}
