import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { ChannelChangeAnswer } from '~/components/channels/channel-change-answer'
import { assignAgentSchema } from '~/lib/channels/schemas'
import { changeInCurrentScope } from '~/http/organization.server'
import { CHANNEL_TEXTS } from '~/lib/channels/channels'
import { goLiveDeps } from '~/runtime/channel-deps.server'
import { getRuntime } from '~/runtime/runtime.server'
import { assignAndGoLive, goLiveTold } from '~/services/channels/go-live.server'

/** The Assign button of the Channel Details dialog: an enabled agent also starts the channel receiving. */
export async function action({ request, params }: ActionFunctionArgs) {
  const channelId = params.channelId ?? ''
  const deps = goLiveDeps(await getRuntime())
  const { assigned: succeeded, assignFailed: failed } = CHANNEL_TEXTS
  return changeInCurrentScope(
    request,
    {
      section: 'agent',
      schema: assignAgentSchema,
      succeeded,
      failed,
      told: goLiveTold,
    },
    (scope, assignment) => assignAndGoLive(scope, channelId, assignment, deps),
    { action: 'assign agent', channelId },
  )
}

export default function AgentAssigned() {
  return <ChannelChangeAnswer answer={useActionData<typeof action>()} />
}
