import { Button, Text } from '@mantine/core'
import { useEffect, useState } from 'react'
import { fetchJson } from '~/components/hooks/fetch-json'
import { NOTIFICATION_TEXTS } from '~/lib/notifications/notifications'

const PUSH_PATH = '/notifications/push'
const WORKER = '/notifications-sw.js'

type State = 'unsupported' | 'blocked' | 'off' | 'on' | 'busy' | 'failed'

/**
 * Turns Web Push on or off for this browser: the service worker, the browser's permission (asked on the click),
 * the subscription with the server's key, kept on the server. Shows nothing before hydration.
 */
export function PushSwitch({ onChange }: { onChange?: (subscriptions: number) => void }) {
  const [state, setState] = useState<State | undefined>()
  useEffect(() => {
    void currentState().then(setState)
  }, [])

  const turn = async (on: boolean) => {
    setState('busy')
    try {
      const subscriptions = on ? await subscribe() : await unsubscribe()
      if (subscriptions !== undefined) onChange?.(subscriptions)
      setState(await currentState())
    } catch {
      setState(Notification.permission === 'denied' ? 'blocked' : 'failed')
    }
  }

  if (!state) return null
  if (state === 'unsupported') return <Text size="sm">{NOTIFICATION_TEXTS.pushUnsupported}</Text>
  if (state === 'blocked') return <Text size="sm">{NOTIFICATION_TEXTS.pushBlocked}</Text>
  const on = state === 'on'
  return (
    <>
      {on ? (
        <Text size="sm" mb="xs">
          {NOTIFICATION_TEXTS.pushIsOn}
        </Text>
      ) : null}
      {state === 'failed' ? (
        <Text size="sm" c="red.8" mb="xs" role="alert">
          {NOTIFICATION_TEXTS.pushFailed}
        </Text>
      ) : null}
      <Button variant="light" size="xs" loading={state === 'busy'} onClick={() => void turn(!on)}>
        {on ? NOTIFICATION_TEXTS.pushOff : NOTIFICATION_TEXTS.pushOn}
      </Button>
    </>
  )
}

function supported() {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    typeof Notification !== 'undefined'
  )
}

async function currentState(): Promise<State> {
  if (!supported()) return 'unsupported'
  if (Notification.permission === 'denied') return 'blocked'
  const registration = await navigator.serviceWorker.getRegistration(WORKER)
  const subscription = await registration?.pushManager.getSubscription()
  return subscription ? 'on' : 'off'
}

async function subscribe(): Promise<number | undefined> {
  const key = await fetchJson<{ publicKey: string | null }>(PUSH_PATH)
  if (!key?.publicKey) throw new Error('push is not set up on this server')
  if ((await Notification.requestPermission()) !== 'granted') throw new Error('not allowed')
  const registration = await navigator.serviceWorker.register(WORKER)
  await navigator.serviceWorker.ready
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key.publicKey }))
  return send({ intent: 'subscribe', subscription: subscription.toJSON() })
}

async function unsubscribe(): Promise<number | undefined> {
  const registration = await navigator.serviceWorker.getRegistration(WORKER)
  const subscription = await registration?.pushManager.getSubscription()
  if (!subscription) return undefined
  await subscription.unsubscribe()
  return send({ intent: 'unsubscribe', endpoint: subscription.endpoint })
}

async function send(body: unknown): Promise<number | undefined> {
  const answer = await fetchJson<{ subscriptions: number }>(PUSH_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!answer) throw new Error('not saved')
  return answer.subscriptions
}
