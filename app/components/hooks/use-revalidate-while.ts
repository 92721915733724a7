import { useNavigation, useRevalidator } from '@remix-run/react'
import { useEffect } from 'react'

/**
 * Reloads the page's data every `intervalMs` while `active` (a source is being processed), so that the page shows
 * the change without the reader reloading; nothing while a navigation or a reload is under way, and nothing once
 * `active` is false. A hidden tab waits until it is shown again.
 */
export function useRevalidateWhile(active: boolean, intervalMs: number) {
  const { revalidate, state } = useRevalidator()
  const navigation = useNavigation()
  const idle = state === 'idle' && navigation.state === 'idle'

  useEffect(() => {
    if (!active || !idle) return
    let timer: ReturnType<typeof setTimeout>
    const tick = () => {
      if (document.visibilityState === 'visible') void revalidate()
      else timer = setTimeout(tick, intervalMs)
    }
    timer = setTimeout(tick, intervalMs)
    return () => clearTimeout(timer)
  }, [active, idle, intervalMs, revalidate])
}
