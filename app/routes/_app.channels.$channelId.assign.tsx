import { parseWithZod } from '@conform-to/zod/v4'
import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { ChannelChangeAnswer } from '~/components/channels/channel-change-answer'
import { assignAgentSchema } from '~/components/channels/schemas'
import { CHANNEL_MESSAGES } from '~/lib/channels'
import { assignAgent } from '~/services/channels/channels.server'
import { attemptChange, getCurrentScope, refuseChange } from '~/http/organization.server'

/** The Assign button of the Channel Details dialog. */
export async function action({ request, params }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const channelId = params.channelId ?? ''
  const failed = CHANNEL_MESSAGES.assignFailed
  const submission = parseWithZod(await request.formData(), { schema: assignAgentSchema })
  if (submission.status !== 'success') return refuseChange('agent', submission.error, failed)
  return attemptChange(
    'agent',
    scope,
    (s) => assignAgent(s, channelId, submission.value),
    { succeeded: CHANNEL_MESSAGES.assigned, failed },
    { action: 'assign agent', channelId },
  )
}

export default function AgentAssigned() {
  return <ChannelChangeAnswer answer={useActionData<typeof action>()} />
}
