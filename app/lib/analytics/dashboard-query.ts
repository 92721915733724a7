import { z } from 'zod'
import { analyticsQuerySchema, presetPeriod } from './analytics'
import { DASHBOARD_PERIODS, DASHBOARD_TEXTS, DEFAULT_DASHBOARD_PERIOD } from './dashboard'
import { idSchema } from '~/lib/shared/input'

// The dashboard's query string (issue #19; docs/decisions/047), read by its loader: apart from lib/analytics/dashboard so that
// the page's client code does not load the schemas.

/** The page's query string: a preset period or a custom range (dates in the organization's zone), and filters. */
export const dashboardQuerySchema = z.object({
  period: z
    .enum(DASHBOARD_PERIODS, { error: DASHBOARD_TEXTS.periodInvalid })
    .default(DEFAULT_DASHBOARD_PERIOD),
  from: z.string().trim().max(10).optional(),
  to: z.string().trim().max(10).optional(),
  channelId: idSchema.optional(),
  agentId: idSchema.optional(),
})
export type DashboardQuery = z.output<typeof dashboardQuerySchema>

/**
 * The period the dashboard shows when none is chosen, ending today in the organization's time zone; the API's
 * analytics without `from` and `to` answer for it too.
 */
export const defaultDashboardRange = (timeZone: string, now: Date = new Date()) =>
  presetPeriod(DEFAULT_DASHBOARD_PERIOD, timeZone, now)

/** A form's empty field ("All channels", a blank date) is the same as a left-out one. */
function withoutBlanks(params: URLSearchParams) {
  return Object.fromEntries([...params].filter(([, value]) => value.trim() !== ''))
}

/**
 * The dashboard's query string as the analytics query, or the messages that say what is wrong with
 * it. A preset ends today in the organization's time zone.
 */
export function parseDashboardQuery(params: URLSearchParams, timeZone: string, now: Date = new Date()) {
  const form = withoutBlanks(params)
  const parsed = dashboardQuerySchema.safeParse(form)
  if (!parsed.success) {
    return { ok: false as const, form, errors: parsed.error.issues.map((issue) => issue.message) }
  }
  const { period, from, to, channelId, agentId } = parsed.data
  if (period === 'custom' && (!from || !to)) {
    return { ok: false as const, form, errors: [DASHBOARD_TEXTS.customNeedsDates] }
  }
  const range = period === 'custom' ? { from, to } : presetPeriod(period, timeZone, now)
  // Today is shown by the hour, a longer period by the day.
  const granularity = period === 'today' ? 'hour' : 'day'
  const query = analyticsQuerySchema.safeParse({ ...range, channelId, agentId, granularity })
  if (!query.success) {
    return { ok: false as const, form, errors: query.error.issues.map((issue) => issue.message) }
  }
  return { ok: true as const, form, period, query: query.data }
}
