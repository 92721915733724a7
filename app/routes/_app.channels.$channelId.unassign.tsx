import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { ChannelChangeAnswer } from '~/components/channels/channel-change-answer'
import { CHANNEL_MESSAGES } from '~/lib/channels'
import { removeAgent } from '~/services/channels/channels.server'
import { attemptChange, getCurrentScope } from '~/http/organization.server'

/** The Remove button of the Channel Details dialog. */
export async function action({ request, params }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const channelId = params.channelId ?? ''
  return attemptChange(
    'agent',
    scope,
    (s) => removeAgent(s, channelId),
    { succeeded: CHANNEL_MESSAGES.removed, failed: CHANNEL_MESSAGES.removeFailed },
    { action: 'remove agent', channelId },
  )
}

export default function AgentRemoved() {
  return <ChannelChangeAnswer answer={useActionData<typeof action>()} />
}
