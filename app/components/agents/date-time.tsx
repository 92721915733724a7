import { useHydrated } from '~/components/hooks/use-hydrated'

/**
 * A date in the reader's own time zone once the page runs in the browser; the server, which does not know that
 * zone, renders UTC (and hydration then matches what the server sent).
 */
export function DateTime({ value }: { value: Date | string }) {
  const hydrated = useHydrated()
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return <span>—</span>
  const iso = date.toISOString()
  const text = hydrated
    ? date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
    : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
  return <time dateTime={iso}>{text}</time>
}
