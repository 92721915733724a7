import { useLocation } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { fetchJson } from './fetch-json'
import { INBOX_LIVE } from '~/lib/conversations/conversations'
import { useInboxEvents } from './use-inbox-events'

/**
 * How many conversations need a person, live: `initial` from the layout's loader (so it shows with no script),
 * then read again (INBOX_LIVE.attentionPath) whenever the inbox's stream says a conversation changed. On the inbox
 * itself its own stream reloads every loader, the layout's count with them, so no second stream opens there.
 */
export function useAttentionCount(
  initial: number,
  organizationId: string | undefined,
  /** Told when the stream says the member has a new notification (the bell). */
  onNotification?: () => void,
): number {
  const { pathname } = useLocation()
  const [count, setCount] = useState(initial)
  useEffect(() => setCount(initial), [initial])
  const latest = useRef(0)
  useInboxEvents({
    organizationId,
    enabled: Boolean(organizationId) && !pathname.startsWith('/conversations'),
    refresh: () => {
      const call = ++latest.current
      void fetchJson<{ count: number }>(INBOX_LIVE.attentionPath).then((data) => {
        // An older answer that arrives after a newer one is dropped.
        if (typeof data?.count === 'number' && call === latest.current) setCount(data.count)
      })
    },
    onNotification,
  })
  return count
}

/** The tab's title with the count in front, "(3) Dashboard · ReplyPilot", kept after each navigation's title. */
export function useCountInTitle(count: number) {
  const { key } = useLocation()
  useEffect(() => {
    const base = document.title.replace(/^\(\d+\) /, '')
    document.title = count > 0 ? `(${count}) ${base}` : base
  }, [count, key])
}
