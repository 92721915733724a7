import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { ChannelChangeAnswer } from '~/components/channels/channel-change-answer'
import { assignAgentSchema } from '~/lib/channels/schemas'
import { changeInCurrentScope } from '~/http/organization.server'
import { CHANNEL_TEXTS } from '~/lib/channels/channels'
import { assignAgent } from '~/services/channels/channels.server'

/** The Assign button of the Channel Details dialog. */
export async function action({ request, params }: ActionFunctionArgs) {
  const channelId = params.channelId ?? ''
  const { assigned: succeeded, assignFailed: failed } = CHANNEL_TEXTS
  return changeInCurrentScope(
    request,
    { section: 'agent', schema: assignAgentSchema, succeeded, failed },
    (scope, assignment) => assignAgent(scope, channelId, assignment),
    { action: 'assign agent', channelId },
  )
}

export default function AgentAssigned() {
  return <ChannelChangeAnswer answer={useActionData<typeof action>()} />
}
