import { notifications } from '@mantine/notifications'
import { useFetcher } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import type { MetaClientConfig } from '~/lib/facebook'
import { ConnectError, loadFacebookSdk } from './facebook-sdk'
import { CHANNEL_UI_MESSAGES } from './messages'
import { collectFacebookPages, facebookPagesFormData, runEmbeddedSignup } from './meta-connect'
import type { ChannelActionResponse, ChannelItem } from './types'

export type MetaPlatform = 'facebook' | 'whatsapp'

export type MetaConnect = {
  meta: MetaClientConfig
  /** The connect under way (the browser's part or the action), if any. */
  busy: MetaPlatform | null
  /** Starts loading the SDK when the user shows the intent to connect (the Add Channel menu opens). */
  prepare: () => void
  connect: (platform: MetaPlatform) => void
}

const FALLBACKS: Record<MetaPlatform, string> = {
  facebook: CHANNEL_UI_MESSAGES.facebookLoginFailed,
  whatsapp: CHANNEL_UI_MESSAGES.whatsappSignupFailed,
}

const INTENTS: Record<string, MetaPlatform> = {
  'connect-facebook': 'facebook',
  'connect-whatsapp': 'whatsapp',
}

/**
 * The Facebook Page and WhatsApp connects of the Add Channel menu: the SDK's part in the browser, then one post to
 * the page's action (intent connect-facebook or connect-whatsapp). Failures go to the Connection Error banner,
 * successes to a toast; the grid reloads by itself after the action.
 */
export function useMetaConnect({
  meta,
  channels,
  onConnectError,
}: {
  meta: MetaClientConfig
  channels: ChannelItem[]
  onConnectError: (message: string | null) => void
}): MetaConnect {
  const fetcher = useFetcher<ChannelActionResponse>({ key: 'connect-meta' })
  const [running, setRunning] = useState<MetaPlatform | null>(null)
  const sending = INTENTS[String(fetcher.formData?.get('intent'))] ?? null
  const handled = useRef<ChannelActionResponse | undefined>(undefined)
  const settings = { appId: meta.appId, sdkUrl: meta.sdkUrl }

  useEffect(() => {
    const answer = fetcher.state === 'idle' ? fetcher.data : undefined
    if (!answer || handled.current === answer) return
    handled.current = answer
    if (answer.intent === 'connect-facebook' && answer.connected) {
      const names = answer.connected.map(({ name }) => name)
      notifications.show({ color: 'green', message: CHANNEL_UI_MESSAGES.facebookConnected(names) })
    } else if (answer.intent === 'connect-whatsapp' && answer.connected) {
      notifications.show({
        color: 'green',
        message: CHANNEL_UI_MESSAGES.whatsappConnected(answer.connected.name),
      })
    } else if (
      (answer.intent === 'connect-facebook' || answer.intent === 'connect-whatsapp') &&
      answer.error
    ) {
      onConnectError(answer.error)
    }
  }, [fetcher.state, fetcher.data, onConnectError])

  const prepare = () => {
    if (meta.configured) loadFacebookSdk(settings).catch(() => undefined) // the click says why, if it fails
  }

  const connect = (platform: MetaPlatform) => {
    if (running || sending) return
    setRunning(platform)
    onConnectError(null)
    const work = async () => {
      const sdk = await loadFacebookSdk(settings)
      if (platform === 'facebook') {
        const connectedPages = new Set(
          channels.filter((c) => c.platformName === 'facebook').map((c) => c.platformChannelId),
        )
        return facebookPagesFormData(await collectFacebookPages(sdk, connectedPages))
      }
      const signup = await runEmbeddedSignup(sdk, {
        configId: meta.whatsappConfigId ?? '',
        trustedOrigins: meta.messageOrigins,
      })
      const form = new FormData()
      form.set('intent', 'connect-whatsapp')
      for (const [name, value] of Object.entries(signup)) form.set(name, value)
      return form
    }
    work()
      .then((form) => fetcher.submit(form, { method: 'post' }))
      .catch((error: unknown) => {
        if (!(error instanceof ConnectError)) console.warn(`${platform} connect failed`, error)
        onConnectError(error instanceof ConnectError ? error.message : FALLBACKS[platform])
      })
      .finally(() => setRunning(null))
  }

  return { meta, busy: running ?? sending, prepare, connect }
}
