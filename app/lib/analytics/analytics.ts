import { z } from 'zod'
import { idSchema } from '~/lib/shared/input'
import { PLATFORM_NAMES } from '~/lib/channels/channels'
import type { AnalyticsPreset } from './presets'

/**
 * The dashboard's rules, client-safe: the period the API and (later) the page take, the price table the cost
 * estimate uses, and the figures' shape. What each figure counts is written in app/services/analytics and
 * docs/decisions/044.
 */

/** The longest period, in days (both ends included). */
export const MAX_ANALYTICS_DAYS = 366
/** Hourly buckets only for a period of at most this many days (168 buckets). */
export const MAX_HOURLY_DAYS = 7
/** How many failure reasons the dashboard lists, and conversations it links per reason. */
export const TOP_FAILURE_REASONS = 10
export const CONVERSATIONS_PER_REASON = 5
/**
 * The dashboard's rollup (docs/decisions/044): every run rewrites the buckets of the last `reworkHours` (a
 * message's outcome changes after it arrives).
 */
export const ANALYTICS_ROLLUP = { reworkHours: 48 } as const
export const ANALYTICS_GRANULARITIES = ['day', 'hour'] as const
export type AnalyticsGranularity = (typeof ANALYTICS_GRANULARITIES)[number]

export const ANALYTICS_TEXTS = {
  dateInvalid: (field: string) => `${field} must be a date such as 2025-01-31`,
  rangeInverted: '`from` must be on or before `to`',
  rangeTooLong: `A period can be at most ${MAX_ANALYTICS_DAYS} days`,
  hourlyTooLong: `Hourly figures are for a period of at most ${MAX_HOURLY_DAYS} days`,
  channelNotFound: 'Channel not found',
  agentNotFound: 'Agent not found',
  timeZoneInvalid: 'Time zone must be an IANA time zone such as Europe/Berlin',
  timeZoneRequired: 'Choose a time zone',
  timeZoneSaved: (zone: string) => `Time zone saved: the dashboard now counts days in ${zone}`,
  noPrice: 'no price',
} as const

const DATE = /^\d{4}-\d{2}-\d{2}$/
/** A calendar date, YYYY-MM-DD, that exists (2025-02-30 does not). */
const dateSchema = (field: string) =>
  z
    .string({ error: ANALYTICS_TEXTS.dateInvalid(field) })
    .refine((value) => DATE.test(value) && dayNumber(value) !== undefined, ANALYTICS_TEXTS.dateInvalid(field))

/** Days since 1970-01-01 of a YYYY-MM-DD date, or undefined when there is no such date. */
export function dayNumber(date: string): number | undefined {
  const ms = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)))
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date) return undefined
  return ms / 86_400_000
}

/** The date `days` after a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  return new Date(((dayNumber(date) ?? 0) + days) * 86_400_000).toISOString().slice(0, 10)
}

/** Days from `from` to `to`, both included. */
export const daysIn = (from: string, to: string) => (dayNumber(to) ?? 0) - (dayNumber(from) ?? 0) + 1

const analyticsQueryShape = {
  from: dateSchema('from'),
  to: dateSchema('to'),
  channelId: idSchema.optional(),
  agentId: idSchema.optional(),
  granularity: z.enum(ANALYTICS_GRANULARITIES, { error: 'granularity must be day or hour' }).default('day'),
}

function checkPeriod(
  query: { from: string; to: string; granularity: AnalyticsGranularity },
  ctx: z.RefinementCtx,
) {
  if (dayNumber(query.from) === undefined || dayNumber(query.to) === undefined) return
  const days = daysIn(query.from, query.to)
  if (days < 1) ctx.addIssue({ code: 'custom', message: ANALYTICS_TEXTS.rangeInverted, path: ['to'] })
  else if (days > MAX_ANALYTICS_DAYS) {
    ctx.addIssue({ code: 'custom', message: ANALYTICS_TEXTS.rangeTooLong, path: ['to'] })
  } else if (query.granularity === 'hour' && days > MAX_HOURLY_DAYS) {
    ctx.addIssue({ code: 'custom', message: ANALYTICS_TEXTS.hourlyTooLong, path: ['granularity'] })
  }
}

/** The dashboard's query: a period of dates in the organization's time zone, both ends included. */
export const analyticsQuerySchema = z.object(analyticsQueryShape).superRefine(checkPeriod)
export type AnalyticsQuery = z.output<typeof analyticsQuerySchema>

/**
 * The API's query: the dashboard's, where `from` and `to` left out together stand for the dashboard's default
 * period (see dashboard-query.ts); one without the other is refused, as a malformed date.
 */
export const analyticsApiQuerySchema = z
  .object({
    ...analyticsQueryShape,
    from: analyticsQueryShape.from.optional(),
    to: analyticsQueryShape.to.optional(),
  })
  .superRefine(({ from, to, granularity }, ctx) => {
    if (from !== undefined && to !== undefined) return checkPeriod({ from, to, granularity }, ctx)
    if (from !== undefined)
      ctx.addIssue({ code: 'custom', message: ANALYTICS_TEXTS.dateInvalid('to'), path: ['to'] })
    if (to !== undefined) {
      ctx.addIssue({ code: 'custom', message: ANALYTICS_TEXTS.dateInvalid('from'), path: ['from'] })
    }
  })

/** The IANA name as Intl spells it (UTC for "utc"), or undefined when Intl does not know it. */
export function canonicalTimeZone(zone: string): string | undefined {
  // Offsets ("+05:00") are refused: PostgreSQL reads a bare offset with the POSIX sign, the opposite of ISO's.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone)) return undefined
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone
  } catch {
    return undefined
  }
}

/** An organization's time zone as a client sends it; stored as Intl's canonical name. */
export const timeZoneSchema = z
  .string({ error: ANALYTICS_TEXTS.timeZoneInvalid })
  .trim()
  .max(64, ANALYTICS_TEXTS.timeZoneInvalid)
  .transform((zone, ctx) => {
    const canonical = canonicalTimeZone(zone)
    if (!canonical) {
      ctx.addIssue({ code: 'custom', message: ANALYTICS_TEXTS.timeZoneInvalid })
      return z.NEVER
    }
    return canonical
  })

/** Today's date in a time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now)
}

export { ANALYTICS_PRESETS, type AnalyticsPreset } from './presets'

/** The dashboard's preset periods, ending today in the organization's time zone. */
export function presetPeriod(preset: AnalyticsPreset, timeZone: string, now: Date = new Date()) {
  const to = todayIn(timeZone, now)
  const days = { today: 1, '7d': 7, '30d': 30 }[preset]
  return { from: addDays(to, 1 - days), to }
}

/** The buckets of a period, in order, as the figures name them: dates, or local hours `YYYY-MM-DDTHH:00`. */
export function bucketsOf(from: string, to: string, granularity: AnalyticsGranularity): string[] {
  const days = Array.from({ length: Math.max(0, daysIn(from, to)) }, (_, i) => addDays(from, i))
  if (granularity === 'day') return days
  return days.flatMap((day) =>
    Array.from({ length: 24 }, (_, h) => `${day}T${String(h).padStart(2, '0')}:00`),
  )
}

/** US dollars per million tokens, prompt and completion, for a model id. */
export type ModelPrice = { prompt: number; completion: number }
export const modelPricesSchema = z.record(
  z.string().min(1),
  z.object({ prompt: z.number().min(0), completion: z.number().min(0) }),
)
export type ModelPrices = Record<string, ModelPrice>

/**
 * List prices of common models (USD per million tokens, as their providers publish them), the dashboard's
 * estimate; LLM_PRICES (JSON of the same shape) adds or replaces entries. A model matches its own id, else the
 * longest entry its id starts with (`gpt-4o-mini-2024-07-18` is `gpt-4o-mini`); a provider prefix
 * (`openai/`) is ignored. A model that matches none has no price: its tokens are counted, not priced.
 */
export const DEFAULT_MODEL_PRICES: ModelPrices = {
  'gpt-4o': { prompt: 2.5, completion: 10 },
  'gpt-4o-mini': { prompt: 0.15, completion: 0.6 },
  'gpt-4.1': { prompt: 2, completion: 8 },
  'gpt-4.1-mini': { prompt: 0.4, completion: 1.6 },
  'gpt-4.1-nano': { prompt: 0.1, completion: 0.4 },
  'gpt-5': { prompt: 1.25, completion: 10 },
  'gpt-5-mini': { prompt: 0.25, completion: 2 },
  'gpt-5-nano': { prompt: 0.05, completion: 0.4 },
  'claude-3-5-haiku': { prompt: 0.8, completion: 4 },
  'claude-haiku-4-5': { prompt: 1, completion: 5 },
  'claude-sonnet-4': { prompt: 3, completion: 15 },
  'claude-opus-4': { prompt: 15, completion: 75 },
  'gemini-2.0-flash': { prompt: 0.1, completion: 0.4 },
  'gemini-2.5-flash': { prompt: 0.3, completion: 2.5 },
  'gemini-2.5-pro': { prompt: 1.25, completion: 10 },
}

/** The price of a model by the rule above, or undefined (no price). */
export function priceOf(model: string | null, prices: ModelPrices): ModelPrice | undefined {
  if (!model) return undefined
  const id = model.slice(model.lastIndexOf('/') + 1)
  if (prices[id]) return prices[id]
  let best: string | undefined
  for (const key of Object.keys(prices)) {
    if (id.startsWith(key) && (!best || key.length > best.length)) best = key
  }
  return best ? prices[best] : undefined
}

/** The estimated cost of tokens of one model in USD, or null when the model has no price. */
export function costOf(
  model: string | null,
  tokens: { prompt: number; completion: number },
  prices: ModelPrices,
): number | null {
  const price = priceOf(model, prices)
  if (!price) return null
  return (tokens.prompt * price.prompt + tokens.completion * price.completion) / 1_000_000
}

const seconds = z.number().nullable().meta({
  description:
    'Seconds, within 2.2% (read from a histogram, docs/decisions/044); null when nothing was answered',
})
const rate = z.number().nullable().meta({ description: 'From 0 to 1; null when nothing was received' })
const usd = z
  .number()
  .meta({ description: 'US dollars, estimated from the price table (priced models only)' })

/** What happened to the customer messages of a bucket, a row or the whole period. */
const outcomesShape = {
  received: z.number().int(),
  answeredByAi: z.number().int(),
  answeredByPerson: z.number().int(),
  failed: z.number().int(),
  paused: z.number().int(),
  noAgent: z.number().int(),
  /** Left to a person because the agent's knowledge had no answer (it said so): a handoff too. */
  noKnowledge: z.number().int(),
  /** Not answered: failed + paused + noAgent + noKnowledge. */
  notAnswered: z.number().int(),
  /** Still waiting for the AI's answer (queued). */
  waiting: z.number().int(),
}

const tokensShape = {
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  totalTokens: z.number().int(),
  cost: usd,
  /** Tokens of models without a price: counted, not in `cost`. */
  unpricedTokens: z.number().int(),
}

const responseShape = {
  firstResponseMedianSeconds: seconds,
  firstResponseP90Seconds: seconds,
}

export const analyticsPointSchema = z.object({
  bucket: z.string().meta({ description: 'A date (YYYY-MM-DD) or a local hour (YYYY-MM-DDTHH:00)' }),
  ...outcomesShape,
  ...responseShape,
  conversationsStarted: z.number().int(),
  handoffs: z.number().int(),
  ...tokensShape,
})

const rowShape = {
  ...outcomesShape,
  aiAnswerRate: rate,
  ...responseShape,
  conversationsStarted: z.number().int(),
  handoffs: z.number().int(),
  ...tokensShape,
  /** Customer messages received per bucket, for a trend line. */
  trend: z.array(z.number().int()),
}

export const analyticsSchema = z.object({
  period: z.object({
    from: z.string(),
    to: z.string(),
    timeZone: z.string(),
    granularity: z.enum(ANALYTICS_GRANULARITIES),
    channelId: z.string().nullable(),
    agentId: z.string().nullable(),
  }),
  totals: z.object({
    ...outcomesShape,
    aiAnswerRate: rate,
    ...responseShape,
    /** Conversations started in the period that got a first answer (what the response times are over). */
    conversationsAnswered: z.number().int(),
    conversationsStarted: z.number().int(),
    handoffs: z.number().int(),
    /** Conversations that need a person now (whatever the period). */
    needingAttention: z.number().int(),
    /** Conversations resolved in the period, and those the AI resolved alone (no person needed, none wrote). */
    conversationsResolved: z.number().int(),
    resolvedByAi: z.number().int(),
    aiResolutionRate: rate.meta({
      description: 'resolvedByAi / conversationsResolved; null when none was resolved in the period',
    }),
    ...tokensShape,
    models: z.array(
      z.object({
        model: z.string().nullable(),
        promptTokens: z.number().int(),
        completionTokens: z.number().int(),
        cost: z
          .number()
          .nullable()
          .meta({ description: `null: ${ANALYTICS_TEXTS.noPrice}` }),
      }),
    ),
  }),
  series: z.array(analyticsPointSchema),
  agents: z.array(z.object({ id: z.string(), name: z.string(), ...rowShape })),
  channels: z.array(
    z.object({ id: z.string(), name: z.string(), platformName: z.enum(PLATFORM_NAMES), ...rowShape }),
  ),
  failureReasons: z.array(
    z.object({
      reason: z.string(),
      /** failed: the reply failed; not_answered: stored and left to a person (no agent, out of hours...). */
      kind: z.enum(['failed', 'not_answered']),
      messages: z.number().int(),
      conversationIds: z.array(z.string()).meta({ description: 'The latest ones, at most 5' }),
    }),
  ),
})
export type Analytics = z.output<typeof analyticsSchema>
export type AnalyticsPoint = z.output<typeof analyticsPointSchema>

/** The Settings form that sets the organization's time zone (owners only). */
export const organizationTimeZoneSchema = z.object({
  timeZone: z.string({ error: ANALYTICS_TEXTS.timeZoneRequired }).pipe(timeZoneSchema),
})
