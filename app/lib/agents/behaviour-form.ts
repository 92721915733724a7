import { z } from 'zod'
import {
  AGENT_BEHAVIOUR_DEFAULTS,
  DEFAULT_OFFICE_HOURS,
  WEEKDAYS,
  behaviourFields,
  officeHoursSchema,
  type Weekday,
} from './behaviour'

// The agent form's Behaviour tab (issue #17) as a browser posts it, turned into the agent's behaviour fields and
// checked by the same schemas as the API (agent-behaviour.ts). What a form cannot say directly is said here: an
// unticked box posts nothing (off), an emptied message box posts '' (which Conform reads as left out), and office
// hours that are switched off still post their fields (which are then ignored).

/**
 * The hidden field the Behaviour tab posts. Without it a post never showed the tab (an older page, a script, a
 * test helper): a new agent then takes AGENT_BEHAVIOUR_DEFAULTS, as an API body that leaves the fields out does.
 */
export const BEHAVIOUR_FORM_MARKER = 'behaviourForm'

/** The time zone a new schedule starts with. */
export const DEFAULT_TIME_ZONE = DEFAULT_OFFICE_HOURS.timeZone

/**
 * The time zones the form offers: this server's (which is the one that checks them), UTC first. Passed to the page
 * by the loader, so that the server-rendered list and the browser's first render are the same.
 */
export function timeZoneList(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
  return [DEFAULT_TIME_ZONE, ...zones.filter((zone) => zone !== DEFAULT_TIME_ZONE)]
}

const formDay = z.object({
  open: z.boolean().optional(),
  opens: z.string().optional(),
  closes: z.string().optional(),
})

/**
 * Office hours in the form: `enabled` is a checkbox; when it is off the rest is ignored and the agent has none
 * (null). When on, the schedule is checked by officeHoursSchema itself, its messages on the form's fields. A closed
 * day's time boxes may be disabled (and so not posted): it keeps the default hours.
 */
export const officeHoursFormSchema = z
  .object({
    enabled: z.boolean().optional(),
    timeZone: z.string().optional(),
    days: z
      .object(
        Object.fromEntries(WEEKDAYS.map((day) => [day, formDay.optional()])) as Record<
          Weekday,
          z.ZodOptional<typeof formDay>
        >,
      )
      .optional(),
    outsideHours: z.string().optional(),
    message: z.string().optional(),
  })
  // Left out (a post that never showed the Behaviour tab) or null (an agent without them): no office hours.
  .nullish()
  .transform((hours, ctx) => {
    if (!hours?.enabled) return null
    const { days, outsideHours, message, timeZone } = hours
    const parsed = officeHoursSchema.safeParse({
      timeZone,
      days: Object.fromEntries(
        WEEKDAYS.map((weekday) => {
          const day = days?.[weekday] ?? {}
          const open = day.open ?? false
          const fallback = DEFAULT_OFFICE_HOURS.days[weekday]
          return [
            weekday,
            {
              open,
              opens: day.opens ?? (open ? undefined : fallback.opens),
              closes: day.closes ?? (open ? undefined : fallback.closes),
            },
          ]
        }),
      ),
      outsideHours,
      // An emptied box is "no message": required when it is the one sent, else the default text is kept.
      message: message ?? (outsideHours === 'message' ? '' : undefined),
    })
    if (parsed.success) return parsed.data
    for (const issue of parsed.error.issues) {
      ctx.issues.push({ code: 'custom', message: issue.message, path: issue.path, input: issue.input })
    }
    return z.NEVER
  })

/** The Behaviour tab's fields, as the create and edit forms post them. */
export const behaviourFormFields = {
  burstWaitSeconds: behaviourFields.burstWaitSeconds,
  /** An unticked switch posts nothing. */
  handoffEnabled: behaviourFields.handoffEnabled.default(false),
  /** An emptied box is named as such, not as "must be text". */
  handoffMessage: z.string({ error: 'The handoff message is required' }).pipe(behaviourFields.handoffMessage),
  /** An emptied box: send nothing. */
  fallbackMessage: behaviourFields.fallbackMessage.default(''),
  unreadableMessage: behaviourFields.unreadableMessage.default(''),
  officeHours: officeHoursFormSchema,
}

/**
 * A new agent's form values where a post never showed the Behaviour tab: the defaults, as values (not form
 * strings) that Conform passes through as they are.
 */
export function withBehaviourDefaults(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || BEHAVIOUR_FORM_MARKER in raw) return raw
  const { officeHours: _off, ...defaults } = AGENT_BEHAVIOUR_DEFAULTS
  return { ...defaults, ...raw }
}
