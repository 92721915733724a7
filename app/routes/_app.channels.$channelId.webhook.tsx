import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { ChannelChangeAnswer } from '~/components/channels/channel-change-answer'
import { webhookSchema } from '~/lib/channels/schemas'
import { changeInCurrentScope } from '~/http/organization.server'
import { CHANNEL_TEXTS } from '~/lib/channels/channels'
import { platformDeps } from '~/runtime/channel-deps.server'
import { getRuntime } from '~/runtime/runtime.server'
import { setChannelWebhook } from '~/services/channels/webhook.server'

/** The "Webhook Subscription" switch of the Channel Details dialog. */
export async function action({ request, params }: ActionFunctionArgs) {
  const channelId = params.channelId ?? ''
  const deps = platformDeps(await getRuntime())
  return changeInCurrentScope(
    request,
    { section: 'webhook', schema: webhookSchema, succeeded: null, failed: CHANNEL_TEXTS.webhookFailed },
    (scope, { subscribed }) => setChannelWebhook(scope, channelId, subscribed, deps),
    { action: 'channel webhook', channelId },
  )
}

export default function WebhookChanged() {
  return <ChannelChangeAnswer answer={useActionData<typeof action>()} />
}
