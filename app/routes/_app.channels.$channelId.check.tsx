import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { z } from 'zod'
import { ChannelChangeAnswer } from '~/components/channels/channel-change-answer'
import { changeInCurrentScope } from '~/http/organization.server'
import { HEALTH_TEXTS } from '~/lib/channels/health'
import { healthCheckDeps } from '~/runtime/channel-deps.server'
import { getRuntime } from '~/runtime/runtime.server'
import { checkChannelHealth } from '~/services/channels/health-check.server'

/** "Check now" in Channel Details: asks the channel's platform at once (docs/decisions/046). */
export async function action({ request, params }: ActionFunctionArgs) {
  const channelId = params.channelId ?? ''
  const deps = healthCheckDeps(await getRuntime())
  return changeInCurrentScope(
    request,
    {
      section: 'health',
      schema: z.object({}),
      succeeded: HEALTH_TEXTS.checked,
      failed: HEALTH_TEXTS.checkFailed,
    },
    (scope) => checkChannelHealth(scope, channelId, deps),
    { action: 'channel check', channelId },
  )
}

export default function ChannelChecked() {
  return <ChannelChangeAnswer answer={useActionData<typeof action>()} />
}
