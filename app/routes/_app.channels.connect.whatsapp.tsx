import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs } from '@remix-run/node'
import { whatsappConnectSchema } from '~/lib/channels/connect-schemas'
import { CHANNEL_TEXTS, channelDisplayName } from '~/lib/channels/channels'
import { toChannelView } from '~/services/channels/channels.server'
import { connectWhatsApp } from '~/services/channels/whatsapp.server'
import { platformDeps } from '~/runtime/channel-deps.server'
import { connectFailure, firstMessage } from '~/lib/shared/form-reply'
import { attemptInScope, getCurrentScope } from '~/http/organization.server'
import { getRuntime } from '~/runtime/runtime.server'

/**
 * The number Embedded Signup shared (code, WABA and phone number ids), posted by the Add Channel menu's SDK
 * island. Needs JavaScript; the answer is for the island, which toasts or shows the banner.
 */
export async function action({ request }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const submission = parseWithZod(await request.formData(), { schema: whatsappConnectSchema })
  if (submission.status !== 'success') {
    const error = firstMessage(submission.error) ?? CHANNEL_TEXTS.whatsappSignupFailed
    return data({ connected: null, error }, 400)
  }
  const deps = platformDeps(await getRuntime())
  const failed = CHANNEL_TEXTS.whatsappConnectFailed
  const outcome = await attemptInScope(scope, (s) => connectWhatsApp(s, submission.value, deps), failed, {
    action: 'connect whatsapp',
  })
  if (!outcome.ok) {
    return data({ connected: null, error: connectFailure(failed, outcome.failure) }, outcome.failure.status)
  }
  const { channel } = outcome.value
  return {
    connected: { id: channel.id, name: channelDisplayName(toChannelView(channel, deps)) },
    error: null,
  }
}

// A page route (not a resource route), so that a refused post answers with its status; nothing to show.
export default function ConnectWhatsApp() {
  return null
}
