import { Button, Text } from '@mantine/core'
import { useEffect, useState } from 'react'
import { NOTIFICATION_TEXTS } from '~/lib/notifications/notifications'

/**
 * Whether this browser shows the bell's news as its own alerts while a tab is open: asking needs a click (browsers
 * refuse a request nobody made). Nothing shows before hydration or where the browser has no notifications.
 */
export function BrowserAlerts() {
  const [permission, setPermission] = useState<NotificationPermission | 'unsupported' | undefined>()
  useEffect(() => {
    setPermission(typeof Notification === 'undefined' ? 'unsupported' : Notification.permission)
  }, [])
  if (!permission || permission === 'unsupported') return null
  if (permission === 'granted') return <Text size="sm">{NOTIFICATION_TEXTS.browserAlertsOn}</Text>
  if (permission === 'denied') return <Text size="sm">{NOTIFICATION_TEXTS.browserAlertsBlocked}</Text>
  return (
    <Button
      variant="light"
      size="xs"
      onClick={() => void Notification.requestPermission().then(setPermission)}
    >
      {NOTIFICATION_TEXTS.browserAlerts}
    </Button>
  )
}
