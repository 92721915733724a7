import { parseWithZod } from '@conform-to/zod/v4'
import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { ChannelChangeAnswer } from '~/components/channels/channel-change-answer'
import { webhookSchema } from '~/components/channels/schemas'
import { CHANNEL_MESSAGES } from '~/lib/channels'
import { setChannelWebhook } from '~/services/channels/webhook.server'
import { platformDeps } from '~/runtime/channel-deps.server'
import { attemptChange, getCurrentScope, refuseChange } from '~/http/organization.server'
import { getRuntime } from '~/runtime/runtime.server'

/** The "Webhook Subscription" switch of the Channel Details dialog. */
export async function action({ request, params }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const channelId = params.channelId ?? ''
  const failed = CHANNEL_MESSAGES.webhookFailed
  const submission = parseWithZod(await request.formData(), { schema: webhookSchema })
  if (submission.status !== 'success') return refuseChange('webhook', submission.error, failed)
  const deps = platformDeps(await getRuntime())
  const { subscribed } = submission.value
  return attemptChange(
    'webhook',
    scope,
    (s) => setChannelWebhook(s, channelId, subscribed, deps),
    { succeeded: null, failed },
    { action: 'channel webhook', channelId },
  )
}

export default function WebhookChanged() {
  return <ChannelChangeAnswer answer={useActionData<typeof action>()} />
}
