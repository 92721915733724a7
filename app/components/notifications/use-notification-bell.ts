import { useNavigate } from '@remix-run/react'
import { useCallback, useEffect, useRef, useState } from 'react'
import { fetchJson } from '~/components/hooks/fetch-json'
import { notificationHref, type NotificationItem } from '~/lib/notifications/notifications'

type BellData = { items: NotificationItem[]; unread: number }

export const BELL_PATH = '/notifications/bell'

export type NotificationBellState = {
  unread: number
  /** The list, once read (the bell reads it when opened, and when the stream says something new came). */
  items: NotificationItem[] | undefined
  /** Reads the list and count again. */
  refresh: () => void
  /** Marks one read (as it is followed), or all. */
  markRead: (id: string | 'all') => void
}

/**
 * The bell's state: the count from the layout's loader (so it shows without script), then the list read again
 * whenever the event stream says the member has a new notification. A notification that is new since the last
 * read also shows as the browser's own alert, when the member allowed them (Notification settings).
 */
export function useNotificationBell(initialUnread: number): NotificationBellState {
  const [unread, setUnread] = useState(initialUnread)
  useEffect(() => setUnread(initialUnread), [initialUnread])
  const [items, setItems] = useState<NotificationItem[] | undefined>()
  const seen = useRef<Map<string, string> | undefined>(undefined)
  const latest = useRef(0)
  const navigate = useNavigate()

  const apply = useCallback(
    (data: BellData) => {
      setUnread(data.unread)
      setItems(data.items)
      const before = seen.current
      seen.current = new Map(data.items.map((item) => [item.id, item.updatedAt]))
      // The first read only learns what is already there: nothing is new to alert of.
      if (!before) return
      const fresh = data.items.filter((item) => !item.read && before.get(item.id) !== item.updatedAt)
      for (const item of fresh.slice(0, 3)) alertInBrowser(item, () => navigate(notificationHref(item)))
    },
    [navigate],
  )

  const refresh = useCallback(() => {
    const call = ++latest.current
    void fetchJson<BellData>(BELL_PATH).then((data) => {
      // An older answer that arrives after a newer one is dropped.
      if (data && call === latest.current) apply(data)
    })
  }, [apply])

  const markRead = useCallback((id: string | 'all') => {
    const body = new URLSearchParams(id === 'all' ? { intent: 'read-all' } : { intent: 'read', id })
    setItems((current) =>
      current?.map((item) => (id === 'all' || item.id === id ? { ...item, read: true } : item)),
    )
    void fetchJson<{ unread: number }>(BELL_PATH, { method: 'POST', body }).then((data) => {
      if (data) setUnread(data.unread)
    })
  }, [])

  return { unread, items, refresh, markRead }
}

/** The browser's own notification, when allowed: a click brings the tab forward, on the conversation. */
function alertInBrowser(item: NotificationItem, open: () => void) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return
  try {
    const alert = new Notification(item.title, { body: item.body, tag: item.id })
    alert.onclick = () => {
      window.focus()
      open()
      alert.close()
    }
  } catch {
    // Some mobile browsers only show notifications from a service worker: the bell still counts it.
  }
}
