import { useFetcher, useLocation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { INBOX_LIVE } from '~/lib/conversations/conversations'
import { useInboxEvents } from './use-inbox-events'

/**
 * How many conversations need a person, live: `initial` from the layout's loader (so it shows with no script),
 * then read again (INBOX_LIVE.attentionPath) whenever the inbox's stream says a conversation changed. On the inbox
 * itself its own stream reloads every loader, the layout's count with them, so no second stream opens there.
 */
export function useAttentionCount(initial: number, organizationId: string | undefined): number {
  const fetcher = useFetcher<{ count: number }>()
  const { pathname } = useLocation()
  const [count, setCount] = useState(initial)
  useEffect(() => setCount(initial), [initial])
  useEffect(() => {
    if (typeof fetcher.data?.count === 'number') setCount(fetcher.data.count)
  }, [fetcher.data])
  useInboxEvents({
    organizationId,
    enabled: Boolean(organizationId) && !pathname.startsWith('/conversations'),
    refresh: () => fetcher.load(INBOX_LIVE.attentionPath),
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
