import { startTransition, useEffect, useState } from 'react'

/**
 * Whether an element has come near the viewport (once true, stays true), for work worth doing only where the user
 * looks: the dashboard draws a chart when it is about to scroll into view, in a transition so that React renders it
 * in slices between the browser's other work rather than in one long task.
 */
export function useNearViewport<T extends Element>(margin = '200px') {
  // A callback ref (state), not useRef: the element may appear after the first render (once hydrated).
  const [element, ref] = useState<T | null>(null)
  const [near, setNear] = useState(false)
  useEffect(() => {
    if (!element || near) return
    if (typeof IntersectionObserver === 'undefined') {
      startTransition(() => setNear(true))
      return
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect()
          startTransition(() => setNear(true))
        }
      },
      { rootMargin: margin },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [element, margin, near])
  return [near, ref] as const
}
