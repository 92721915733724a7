import { WEEKDAYS, WEEKDAY_LABELS, type OfficeHours } from './behaviour'

const short = (day: (typeof WEEKDAYS)[number]) => WEEKDAY_LABELS[day].slice(0, 3)

/**
 * A week's schedule in a line per run of days with the same hours: "Mon–Fri 09:00–17:00", "Sat 10:00–14:00".
 * Closed days are left out; a week with no open day says so.
 */
export function scheduleLines(days: OfficeHours['days']): string[] {
  const lines: string[] = []
  let start = 0
  while (start < WEEKDAYS.length) {
    const day = days[WEEKDAYS[start]]
    let end = start
    while (
      end + 1 < WEEKDAYS.length &&
      days[WEEKDAYS[end + 1]].open === day.open &&
      (!day.open ||
        (days[WEEKDAYS[end + 1]].opens === day.opens && days[WEEKDAYS[end + 1]].closes === day.closes))
    ) {
      end++
    }
    if (day.open) {
      const span =
        start === end ? short(WEEKDAYS[start]) : `${short(WEEKDAYS[start])}–${short(WEEKDAYS[end])}`
      lines.push(`${span} ${day.opens}–${day.closes}`)
    }
    start = end + 1
  }
  return lines.length > 0 ? lines : ['Closed every day']
}
