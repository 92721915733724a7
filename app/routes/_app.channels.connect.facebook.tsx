import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs } from '@remix-run/node'
import { facebookPagesSchema } from '~/lib/channels/connect-schemas'
import { CHANNEL_TEXTS, channelDisplayName } from '~/lib/channels/channels'
import { toChannelView } from '~/services/channels/channels.server'
import { connectFacebookPages } from '~/services/channels/facebook.server'
import { platformDeps } from '~/runtime/channel-deps.server'
import { connectFailure, firstMessage } from '~/lib/shared/form-reply'
import { attemptInScope, getCurrentScope } from '~/http/organization.server'
import { getRuntime } from '~/runtime/runtime.server'

/**
 * The pages the Facebook login listed (with the person's token), one channel each, posted by the Add Channel
 * menu's SDK island. Needs JavaScript; the answer is for the island, which toasts or shows the banner.
 */
export async function action({ request }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const submission = parseWithZod(await request.formData(), { schema: facebookPagesSchema })
  if (submission.status !== 'success') {
    const error = firstMessage(submission.error) ?? CHANNEL_TEXTS.noFacebookPages
    return data({ connected: null, error }, 400)
  }
  const deps = platformDeps(await getRuntime())
  const failed = CHANNEL_TEXTS.facebookCreateFailed
  const outcome = await attemptInScope(
    scope,
    (s) => connectFacebookPages(s, submission.value, deps),
    failed,
    {
      action: 'connect facebook',
    },
  )
  if (!outcome.ok) {
    return data({ connected: null, error: connectFailure(failed, outcome.failure) }, outcome.failure.status)
  }
  const connected = outcome.value.map((channel) => ({
    id: channel.id,
    name: channelDisplayName(toChannelView(channel, deps)),
  }))
  return { connected, error: null }
}

// A page route (not a resource route), so that a refused post answers with its status; nothing to show.
export default function ConnectFacebook() {
  return null
}
