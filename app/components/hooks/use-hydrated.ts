import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

/** False during the server render and hydration, true after: for UI that must still work without JavaScript. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
