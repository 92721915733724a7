import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type ActionFunctionArgs } from '@remix-run/node'
import { useActionData, useOutletContext } from '@remix-run/react'
import type { ChannelsDialogContext } from '~/components/channels/channels-screen'
import { ConnectTelegramPanel } from '~/components/channels/connect-telegram-panel'
import { CHANNELS_PATH } from '~/components/channels/paths'
import { connectTelegramSchema } from '~/lib/channels/schemas'
import { dialogHandle } from '~/components/dialogs/route-dialog'
import { useDialogFetcher } from '~/components/hooks/use-dialog-fetcher'
import { CHANNEL_TEXTS, channelDisplayName } from '~/lib/channels/channels'
import { replyRefused } from '~/lib/shared/form-reply'
import { toChannelView } from '~/services/channels/channels.server'
import { connectTelegramBot } from '~/services/channels/telegram.server'
import { platformDeps } from '~/runtime/channel-deps.server'
import { attemptInScope, getCurrentScope } from '~/http/organization.server'
import { getRuntime } from '~/runtime/runtime.server'

export const handle = dialogHandle({ title: 'Connect Telegram Bot', size: 'md' })

// The token is never sent back, not even to the person who typed it.
const hideFields = ['botToken']

/** From the dialog (a fetcher) the answer is data for it; without JavaScript a success goes back to the grid. */
export async function action({ request }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: connectTelegramSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields }), connected: null, error: null }, 400)
  }
  const deps = platformDeps(await getRuntime())
  const outcome = await attemptInScope(
    scope,
    (s) => connectTelegramBot(s, submission.value, deps),
    CHANNEL_TEXTS.telegramCreateFailed,
    { action: 'connect telegram' },
  )
  if (!outcome.ok) {
    // A refused token is the field's error; any other reason is the form's and the Connection Error banner's.
    const { status, reason, fieldErrors } = outcome.failure
    const result = replyRefused(submission, outcome.failure, reason, hideFields)
    return data({ result, connected: null, error: fieldErrors ? null : reason }, status)
  }
  if (formData.has('noscript')) return redirect(CHANNELS_PATH)
  const connected = { id: outcome.value.id, name: channelDisplayName(toChannelView(outcome.value, deps)) }
  return { result: submission.reply({ resetForm: true }), connected, error: null }
}

export default function ConnectTelegramDialog() {
  const { onConnectError } = useOutletContext<ChannelsDialogContext>()
  const submission = useDialogFetcher<typeof action>(useActionData<typeof action>())
  return <ConnectTelegramPanel submission={submission} onConnectError={onConnectError} />
}
