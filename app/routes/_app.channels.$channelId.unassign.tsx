import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { z } from 'zod'
import { ChannelChangeAnswer } from '~/components/channels/channel-change-answer'
import { changeInCurrentScope } from '~/http/organization.server'
import { CHANNEL_TEXTS } from '~/lib/channels/channels'
import { removeAgent } from '~/services/channels/channels.server'

/** The Remove button of the Channel Details dialog (the channel is the URL's: the form sends nothing). */
export async function action({ request, params }: ActionFunctionArgs) {
  const channelId = params.channelId ?? ''
  const { removed: succeeded, removeFailed: failed } = CHANNEL_TEXTS
  return changeInCurrentScope(
    request,
    { section: 'agent', schema: z.object({}), succeeded, failed },
    (scope) => removeAgent(scope, channelId),
    { action: 'remove agent', channelId },
  )
}

export default function AgentRemoved() {
  return <ChannelChangeAnswer answer={useActionData<typeof action>()} />
}
