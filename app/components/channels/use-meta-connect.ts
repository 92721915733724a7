import { notifications } from '@mantine/notifications'
import { useFetcher } from '@remix-run/react'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { MetaClientConfig } from '~/lib/channels/facebook'
import { ConnectError, loadFacebookSdk } from './facebook-sdk'
import { CHANNEL_UI_TEXTS } from './texts'
import { collectFacebookPages, facebookPagesFormData, runEmbeddedSignup } from './meta-connect'
import { CONNECT_PATHS } from './paths'
import type { ChannelItem } from './types'

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
  facebook: CHANNEL_UI_TEXTS.facebookLoginFailed,
  whatsapp: CHANNEL_UI_TEXTS.whatsappSignupFailed,
}

/** What the connect routes answer: the channels connected (one per Facebook page, or the number), or why not. */
type ConnectAnswer<Connected> = { connected: Connected | null; error: string | null }

/** A connect route's fetcher: its answer, once, when the request and the reload after it are over. */
function useConnectFetcher<Connected>(
  platform: MetaPlatform,
  onAnswer: (answer: ConnectAnswer<Connected>) => void,
) {
  const fetcher = useFetcher<ConnectAnswer<Connected>>({ key: `connect-${platform}` })
  const handled = useRef<unknown>(undefined)
  const answer = fetcher.state === 'idle' ? fetcher.data : undefined
  useEffect(() => {
    if (!answer || handled.current === answer) return
    handled.current = answer
    onAnswer(answer)
  }, [answer, onAnswer])
  return fetcher
}

/**
 * The Facebook Page and WhatsApp connects of the Add Channel menu: the SDK's part in the browser, then one post to
 * its connect route (CONNECT_PATHS). Failures go to the Connection Error banner,
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
  const facebook = useConnectFetcher<Array<{ name: string }>>(
    'facebook',
    useCallback(
      ({ connected, error }) => {
        if (connected) {
          const names = connected.map(({ name }) => name)
          notifications.show({ color: 'green', message: CHANNEL_UI_TEXTS.facebookConnected(names) })
        } else if (error) onConnectError(error)
      },
      [onConnectError],
    ),
  )
  const whatsapp = useConnectFetcher<{ name: string }>(
    'whatsapp',
    useCallback(
      ({ connected, error }) => {
        if (connected) {
          notifications.show({
            color: 'green',
            message: CHANNEL_UI_TEXTS.whatsappConnected(connected.name),
          })
        } else if (error) onConnectError(error)
      },
      [onConnectError],
    ),
  )
  const [running, setRunning] = useState<MetaPlatform | null>(null)
  const sending = facebook.formData ? 'facebook' : whatsapp.formData ? 'whatsapp' : null
  const settings = { appId: meta.appId, sdkUrl: meta.sdkUrl }

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
      for (const [name, value] of Object.entries(signup)) form.set(name, value)
      return form
    }
    work()
      .then((form) => {
        const fetcher = platform === 'facebook' ? facebook : whatsapp
        return fetcher.submit(form, { method: 'post', action: CONNECT_PATHS[platform] })
      })
      .catch((error: unknown) => {
        if (!(error instanceof ConnectError)) console.warn(`${platform} connect failed`, error)
        onConnectError(error instanceof ConnectError ? error.message : FALLBACKS[platform])
      })
      .finally(() => setRunning(null))
  }

  return { meta, busy: running ?? sending, prepare, connect }
}
