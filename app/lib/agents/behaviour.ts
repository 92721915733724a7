import { z } from 'zod'
import { hasNoNul, NUL_MESSAGE } from '~/lib/shared/input'

// How an agent behaves in a conversation (issue #17): the burst wait, handing over to a person, what it says
// when it cannot answer, and office hours. Client-safe: the agent form validates with these same schemas.

export const MAX_BURST_WAIT_SECONDS = 30
export const MAX_BEHAVIOUR_MESSAGE_LENGTH = 1000

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const
export type Weekday = (typeof WEEKDAYS)[number]
export const WEEKDAY_LABELS: Record<Weekday, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
}

export const OUT_OF_HOURS_MODES = ['answer', 'message'] as const
export type OutOfHoursMode = (typeof OUT_OF_HOURS_MODES)[number]
export const OUT_OF_HOURS_MODE_LABELS: Record<OutOfHoursMode, string> = {
  answer: 'Answer as usual',
  message: 'Send the out-of-hours message and leave it to a person',
}

export const BEHAVIOUR_TEXTS = {
  handoffMessage: "I'm handing you over to a person from our team. They will reply here as soon as they can.",
  fallbackMessage: "Sorry, I can't answer right now — a person will get back to you.",
  unreadableMessage: 'I can only read text messages for now',
  outOfHoursMessage:
    "Thanks for your message! We're closed right now; a person will get back to you when we open.",
} as const

/** A new agent's behaviour (the form's and the API's defaults). */
export const AGENT_BEHAVIOUR_DEFAULTS = {
  burstWaitSeconds: 3,
  handoffEnabled: true,
  handoffMessage: BEHAVIOUR_TEXTS.handoffMessage,
  fallbackMessage: BEHAVIOUR_TEXTS.fallbackMessage,
  unreadableMessage: BEHAVIOUR_TEXTS.unreadableMessage,
  officeHours: null,
} as const

/**
 * Agents that existed before issue #17 keep answering each message at once and never hand over (the migration's
 * column defaults); they do get the fallback and "text only" messages, which only replace silence.
 */
export const EXISTING_AGENT_BEHAVIOUR = { burstWaitSeconds: 0, handoffEnabled: false } as const

const TIME = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/
const timeOfDay = (label: string) =>
  z.string({ error: `${label} must be a time (HH:MM)` }).regex(TIME, `${label} must be a time (HH:MM)`)

/** One day of the week: closed, or open from `opens` to `closes` (local time; "24:00" is the end of the day). */
export const officeDaySchema = z
  .object({
    open: z.boolean({ error: 'Say whether the day is open' }),
    opens: timeOfDay('Opening time'),
    closes: timeOfDay('Closing time'),
  })
  // A malformed time has its own message; comparing it too would add a misleading second one.
  .refine((day) => !day.open || !TIME.test(day.opens) || !TIME.test(day.closes) || day.opens < day.closes, {
    message: 'Closing time must be after opening time',
    path: ['closes'],
  })
export type OfficeDay = z.output<typeof officeDaySchema>

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

export const behaviourText = (label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(MAX_BEHAVIOUR_MESSAGE_LENGTH, `${label} must be at most ${MAX_BEHAVIOUR_MESSAGE_LENGTH} characters`)
    .refine(hasNoNul, NUL_MESSAGE)

export const officeHoursSchema = z.object({
  timeZone: z
    .string({ error: 'Time zone is required' })
    .trim()
    .min(1, 'Time zone is required')
    .refine(isTimeZone, 'Time zone must be an IANA time zone such as Europe/Berlin'),
  days: z.object(
    Object.fromEntries(WEEKDAYS.map((day) => [day, officeDaySchema])) as Record<
      Weekday,
      typeof officeDaySchema
    >,
    { error: 'Office hours need all seven days' },
  ),
  outsideHours: z.enum(OUT_OF_HOURS_MODES, {
    error: `Outside office hours must be one of: ${OUT_OF_HOURS_MODES.join(', ')}`,
  }),
  message: behaviourText('The out-of-hours message')
    .min(1, 'The out-of-hours message is required')
    .default(BEHAVIOUR_TEXTS.outOfHoursMessage),
})
export type OfficeHours = z.output<typeof officeHoursSchema>

/** The behaviour fields as every agent body (form and API) carries them. */
export const behaviourFields = {
  burstWaitSeconds: z
    .number({ error: 'The wait must be a number of seconds' })
    .int('The wait must be a whole number of seconds')
    .min(0, 'The wait must be at least 0 seconds')
    .max(MAX_BURST_WAIT_SECONDS, `The wait must be at most ${MAX_BURST_WAIT_SECONDS} seconds`),
  handoffEnabled: z.boolean({ error: 'Handoff must be on or off' }),
  handoffMessage: behaviourText('The handoff message').min(1, 'The handoff message is required'),
  /** Empty: nothing is sent when the model fails (the conversation is still marked). */
  fallbackMessage: behaviourText('The fallback message'),
  unreadableMessage: behaviourText('The "text only" message'),
  officeHours: officeHoursSchema.nullable(),
}

export type AgentBehaviour = {
  burstWaitSeconds: number
  handoffEnabled: boolean
  handoffMessage: string
  fallbackMessage: string
  unreadableMessage: string
  officeHours: OfficeHours | null
}

/** A week open Monday to Friday 09:00-17:00: what the form offers when office hours are switched on. */
export const DEFAULT_OFFICE_HOURS: OfficeHours = {
  timeZone: 'UTC',
  days: Object.fromEntries(
    WEEKDAYS.map((day) => [
      day,
      { open: !['saturday', 'sunday'].includes(day), opens: '09:00', closes: '17:00' },
    ]),
  ) as Record<Weekday, OfficeDay>,
  outsideHours: 'message',
  message: BEHAVIOUR_TEXTS.outOfHoursMessage,
}

/** Minutes since midnight of "HH:MM". */
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))

type LocalTime = { year: number; month: number; day: number; weekday: Weekday; minutes: number }

const formatters = new Map<string, Intl.DateTimeFormat>()
export function localTime(instant: Date, timeZone: string): LocalTime {
  let format = formatters.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      weekday: 'long',
      hour: 'numeric',
      minute: 'numeric',
    })
    formatters.set(timeZone, format)
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]))
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: parts.weekday.toLowerCase() as Weekday,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  }
}

/** The instant of a local date and minute of the day in a time zone (the later one when a clock change repeats it). */
function instantOf(year: number, month: number, day: number, minutes: number, timeZone: string): Date {
  const wanted = Date.UTC(year, month - 1, day, 0, minutes)
  let guess = wanted
  for (let i = 0; i < 3; i++) {
    const local = localTime(new Date(guess), timeZone)
    const seen = Date.UTC(local.year, local.month - 1, local.day, 0, local.minutes)
    guess += wanted - seen
  }
  return new Date(guess)
}

export type OfficeHoursState = { open: true } | { open: false; closedSince: Date }

/**
 * Whether the schedule is open at `now`, and if not, since when it has been closed: the last closing time before
 * now (the start of this closed period), or the epoch when the week has no open day at all. The out-of-hours
 * message goes out once per conversation per closed period.
 */
export function officeHoursAt(hours: Pick<OfficeHours, 'timeZone' | 'days'>, now: Date): OfficeHoursState {
  const local = localTime(now, hours.timeZone)
  const today = hours.days[local.weekday]
  if (today.open && local.minutes >= minutesOf(today.opens) && local.minutes < minutesOf(today.closes)) {
    return { open: true }
  }
  // Walk back day by day (at most a week) to the last closing time before now.
  const noonToday = instantOf(local.year, local.month, local.day, 12 * 60, hours.timeZone)
  for (let back = 0; back <= 7; back++) {
    const noon = new Date(noonToday.getTime() - back * 24 * 60 * 60_000)
    const date = localTime(noon, hours.timeZone)
    const day = hours.days[date.weekday]
    if (!day.open) continue
    const closes = instantOf(date.year, date.month, date.day, minutesOf(day.closes), hours.timeZone)
    if (closes.getTime() <= now.getTime()) return { open: false, closedSince: closes }
  }
  return { open: false, closedSince: new Date(0) }
}
