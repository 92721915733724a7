import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { ChannelChangeAnswer } from '~/components/channels/channel-change-answer'
import { assignAgentSchema } from '~/lib/channels/schemas'
import { changeInCurrentScope } from '~/http/organization.server'
import { CHANNEL_TEXTS } from '~/lib/channels/channels'
import { goLiveDeps } from '~/runtime/channel-deps.server'
import { getRuntime } from '~/runtime/runtime.server'
import { assignAndGoLive, goLiveTold } from '~/services/channels/go-live.server'

/**
 * The "Agent Enabled" switch of the Channel Details dialog: the assignment again, switched on or off; switched on,
 * it goes live as Assign does.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const channelId = params.channelId ?? ''
  const deps = goLiveDeps(await getRuntime())
  const section = { section: 'agent', schema: assignAgentSchema, succeeded: null } as const
  return changeInCurrentScope(
    request,
    { ...section, failed: CHANNEL_TEXTS.assignFailed, told: goLiveTold },
    (scope, assignment) => assignAndGoLive(scope, channelId, assignment, deps),
    { action: 'switch agent', channelId },
  )
}

export default function AgentSwitched() {
  return <ChannelChangeAnswer answer={useActionData<typeof action>()} />
}
