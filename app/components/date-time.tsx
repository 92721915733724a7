import { useHydrated } from '~/components/hooks/use-hydrated'

/**
 * The reader's formats, made once: `toLocaleString` builds a formatter on every call, which a page of dates (the
 * dashboard's channels, the inbox's list) paid for each, all in the render right after hydration.
 */
let formats: { dateTime: Intl.DateTimeFormat; time: Intl.DateTimeFormat } | undefined
function readerFormats() {
  formats ??= {
    dateTime: new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
    time: new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }),
  }
  return formats
}

/**
 * A date in the reader's own time zone once the page runs in the browser; the server, which does not know that
 * zone, renders UTC (and hydration then matches what the server sent).
 */
export function DateTime({ value, time = false }: { value: Date | string; time?: boolean }) {
  const hydrated = useHydrated()
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return <span>—</span>
  const iso = date.toISOString()
  /** `time`: the time of day only, for a date that is today (the inbox's list and transcript). */
  const timeOnly = time && hydrated && date.toDateString() === new Date().toDateString()
  const text = !hydrated
    ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
    : timeOnly
      ? readerFormats().time.format(date)
      : readerFormats().dateTime.format(date)
  return <time dateTime={iso}>{text}</time>
}
