import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { Alert } from '@mantine/core'
import { DeleteChannelPanel } from '~/components/channels/delete-channel-panel'
import { CHANNELS_PATH } from '~/components/channels/paths'
import { dialogHandle } from '~/components/dialogs/route-dialog'
import { useDialogFetcher } from '~/components/hooks/use-dialog-fetcher'
import { CHANNEL_TEXTS } from '~/lib/channels/channels'
import { getChannel, toChannelView } from '~/services/channels/channels.server'
import { deleteChannel } from '~/services/channels/delete-channel.server'
import { platformDeps } from '~/runtime/channel-deps.server'
import { attemptInScope, findInCurrentScope, getCurrentScope } from '~/http/organization.server'
import { getRuntime } from '~/runtime/runtime.server'

export const handle = dialogHandle({ title: 'Delete Channel', size: 'md' })

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { config } = await getRuntime()
  const channel = await findInCurrentScope(request, (scope) => getChannel(scope, params.channelId ?? ''))
  return { channel: channel ? toChannelView(channel, config) : null }
}

/** From the dialog (a fetcher) the answer is data for it; without JavaScript a success goes back to the grid. */
export async function action({ request, params }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const channelId = params.channelId ?? ''
  const formData = await request.formData()
  const deps = platformDeps(await getRuntime())
  const outcome = await attemptInScope(
    scope,
    (s) => deleteChannel(s, channelId, deps),
    CHANNEL_TEXTS.deleteFailed,
    { action: 'delete channel', channelId },
  )
  if (!outcome.ok) {
    const answer = { deleted: false, warning: null, error: outcome.failure.reason }
    return data(answer, outcome.failure.status)
  }
  if (formData.has('noscript')) return redirect(CHANNELS_PATH)
  return { deleted: true, warning: outcome.value.warning ?? null, error: null }
}

export default function DeleteChannelDialog() {
  const { channel } = useLoaderData<typeof loader>()
  const submission = useDialogFetcher<typeof action>(useActionData<typeof action>())
  // Deleted, the channel is gone from the reloaded data; the dialog still shows it until it closes.
  const [lastSeen, setLastSeen] = useState(channel)
  if (channel && channel !== lastSeen) setLastSeen(channel)
  const shown = channel ?? lastSeen
  if (!shown) {
    return (
      <Alert color="red" variant="light" role="alert">
        {CHANNEL_TEXTS.notFound}
      </Alert>
    )
  }
  return <DeleteChannelPanel channel={shown} submission={submission} />
}
