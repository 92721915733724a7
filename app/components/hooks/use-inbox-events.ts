import { useNavigation, useRevalidator } from '@remix-run/react'
import { createContext, useContext, useEffect, useRef } from 'react'
import { INBOX_LIVE } from '~/lib/conversations/conversations'

/**
 * What the layout does when the stream says the member has a new notification (the bell reads its list again).
 * Whichever stream is open on the page (the layout's, or the inbox's own) tells it: there is one per tab.
 */
export const NotificationSignal = createContext<() => void>(() => undefined)

/** After the stream failed for good (an error status, the sign-in page): the first wait to open it again, doubled up to the last. */
const REOPEN_MS = { first: 5_000, max: 60_000 }

export type InboxEventsOptions = {
  /**
   * The organization the page shows. The stream follows the session's current organization as it was when it
   * opened: when this changes (a switch), the stream is opened again.
   */
  organizationId?: string
  /** Only this conversation's changes (its page); left out: every conversation's (the list). */
  conversationId?: string
  /** Told of each change that counts, before the page's data is read again. */
  onEvent?: (conversationId: string) => void
  /** What is read again after a change, instead of the whole page's data (the sidebar's count). */
  refresh?: () => void
  /** False: no stream (another hook on the page already reads everything again). */
  enabled?: boolean
  /** Told when the member has a new notification; by default, what NotificationSignal provides. */
  onNotification?: () => void
}

/**
 * Live updates of the inbox (docs/decisions/037): one EventSource on the server's stream while the component is
 * mounted; a change that counts reloads the page's data (Remix's revalidation, which runs every loader on the
 * page), at most one at a time and at most one per INBOX_LIVE.revalidateEveryMs. Each time the stream opens (the
 * first time too: what changed between the page's data and the stream is not told), and when the server says it
 * missed changes (`resync`), the data is reloaded too. Without JavaScript nothing runs: a
 * reload shows the changes.
 *
 * Use it once per page, in the route that shows the list (no `conversationId`: its revalidation reloads the open
 * conversation's loader too), or in a page that shows one conversation alone (its id); pass the organization
 * the page shows. The layout's sidebar count uses it with `refresh` on the other pages (useAttentionCount).
 */
export function useInboxEvents({
  organizationId,
  conversationId,
  onEvent,
  refresh,
  enabled = true,
  onNotification,
}: InboxEventsOptions = {}) {
  const revalidator = useRevalidator()
  const navigation = useNavigation()
  const signal = useContext(NotificationSignal)
  const notified = onNotification ?? signal
  const busy = revalidator.state !== 'idle' || navigation.state !== 'idle'
  const revalidate = refresh ?? revalidator.revalidate

  // The effect below lives as long as the component; it reads the latest of these through refs.
  const latest = useRef({ conversationId, onEvent, revalidate, busy, notified })
  latest.current = { conversationId, onEvent, revalidate, busy, notified }
  /** Set by the effect: asks for a revalidation (when one is wanted, no longer busy, and not too soon). */
  const pump = useRef<() => void>(() => undefined)

  useEffect(() => {
    if (typeof EventSource === 'undefined' || !enabled) return
    let wanted = false
    let lastStarted = Number.NEGATIVE_INFINITY
    let timer: ReturnType<typeof setTimeout> | undefined
    let source: EventSource | undefined
    let reopenTimer: ReturnType<typeof setTimeout> | undefined
    let reopenMs = REOPEN_MS.first

    const run = () => {
      timer = undefined
      if (!wanted || latest.current.busy) return
      const wait = lastStarted + INBOX_LIVE.revalidateEveryMs - Date.now()
      if (wait > 0) return void (timer = setTimeout(run, wait))
      wanted = false
      lastStarted = Date.now()
      latest.current.revalidate()
    }
    pump.current = () => {
      if (wanted && !timer) run()
    }
    const want = () => {
      wanted = true
      pump.current()
    }

    const open = () => {
      reopenTimer = undefined
      const current = new EventSource(INBOX_LIVE.path)
      source = current
      current.addEventListener('open', () => {
        // Changes made before the stream was up were not told: read everything again. That is also true of the
        // first opening: the page's data was read before the stream began (and, on a slow device, seconds before
        // hydration opened it).
        want()
        latest.current.notified()
        reopenMs = REOPEN_MS.first
      })
      current.addEventListener('conversation', (event) => {
        const changed = conversationIdOf(event)
        const { conversationId: shown, onEvent: told } = latest.current
        if (!changed || (shown && changed !== shown)) return
        told?.(changed)
        want()
      })
      current.addEventListener('notification', () => latest.current.notified())
      current.addEventListener('resync', () => {
        want()
        latest.current.notified()
      })
      current.addEventListener('error', () => {
        // EventSource reconnects by itself after a network error; after an error status it gives up: try later.
        if (current.readyState !== EventSource.CLOSED || source !== current) return
        current.close()
        reopenTimer = setTimeout(open, reopenMs)
        reopenMs = Math.min(reopenMs * 2, REOPEN_MS.max)
      })
    }
    open()
    return () => {
      pump.current = () => undefined
      clearTimeout(timer)
      clearTimeout(reopenTimer)
      source?.close()
      source = undefined
    }
  }, [organizationId, enabled])

  // A revalidation or navigation has ended: one wanted meanwhile may start now.
  useEffect(() => {
    if (!busy) pump.current()
  }, [busy])
}

function conversationIdOf(event: Event): string | undefined {
  if (!(event instanceof MessageEvent) || typeof event.data !== 'string') return undefined
  try {
    const data: unknown = JSON.parse(event.data)
    if (
      data &&
      typeof data === 'object' &&
      'conversationId' in data &&
      typeof data.conversationId === 'string'
    ) {
      return data.conversationId
    }
  } catch {
    // Not ours.
  }
  return undefined
}
