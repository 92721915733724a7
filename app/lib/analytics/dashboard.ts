import { ANALYTICS_PRESETS, type AnalyticsPreset } from './presets'

/**
 * The dashboard page at / (issue #19; docs/decisions/047): its query string, texts and the getting-started
 * checklist's steps, and the formats of its figures. Client code, without zod (its query string's schema is
 * lib/analytics/dashboard-query's). The figures themselves are lib/analytics/analytics' and services/analytics'.
 */

export const DASHBOARD_PERIODS = [...ANALYTICS_PRESETS, 'custom'] as const
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number]
export const DEFAULT_DASHBOARD_PERIOD: AnalyticsPreset = '7d'

export const DASHBOARD_PERIOD_LABELS: Record<DashboardPeriod, string> = {
  today: 'Today',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  custom: 'Custom range',
}

export const DASHBOARD_TEXTS = {
  title: 'Dashboard',
  periodInvalid: 'Choose a period: today, last 7 days, last 30 days or a custom range',
  customNeedsDates: 'A custom range needs a start and an end date',
  filtersInvalid: 'These filters could not be applied:',
  loading: 'Loading the figures…',
  loadFailed: 'The dashboard could not be loaded.',
  loadFailedHint: 'Try again; if it keeps failing, the server may be unreachable.',
  retry: 'Try again',
  showAll: 'Show all channels and agents',
  costEstimate: 'Estimated cost',
  costNote: 'An estimate from list prices per model; tokens of models without a price are not in it.',
} as const

export const GETTING_STARTED_STEPS = [
  'channelConnected',
  'agentCreated',
  'agentTried',
  'live',
  'messageReceived',
] as const
export type GettingStartedStep = (typeof GETTING_STARTED_STEPS)[number]

export type GettingStarted = {
  steps: Record<GettingStartedStep, boolean>
  /** The organization's first channel, where going live is done; null: none yet. */
  channelId: string | null
  /** The organization's first agent, the one to try; null: none yet. */
  agentId: string | null
  complete: boolean
}

/** The guided first run (issue 34): each step links to its own page, where it can be done later too. */
export const GETTING_STARTED_TEXTS = {
  title: 'Get started',
  intro: 'Your figures appear here once customers write to your channels. Five steps to get there:',
  done: 'Done',
  todo: 'To do',
  steps: {
    channelConnected: 'Connect a channel',
    agentCreated: 'Create your agent',
    agentTried: 'Try your agent',
    live: 'Go live',
    messageReceived: 'Receive the first customer message',
  } satisfies Record<GettingStartedStep, string>,
  hints: {
    channelConnected: 'Telegram, Messenger or WhatsApp, on the Channels page.',
    agentCreated: 'Start from a template for your kind of business and make its instructions yours.',
    agentTried: 'Ask it what your customers ask, and see how it answers.',
    live: "In the channel's details, choose your agent: the channel starts answering at once.",
    messageReceived: 'Write to your channel as a customer would, and watch it answer.',
  } satisfies Record<GettingStartedStep, string>,
} as const

/** Where an unticked step is done. */
export function gettingStartedHref(
  step: GettingStartedStep,
  { channelId, agentId }: Pick<GettingStarted, 'channelId' | 'agentId'>,
): string {
  const channel = channelId ? `/channels/${channelId}` : '/channels'
  return {
    channelConnected: '/channels',
    agentCreated: '/agents/new',
    agentTried: agentId ? `/agents/${agentId}/test` : '/agents',
    live: channel,
    messageReceived: channel,
  }[step]
}

const numberFormat = new Intl.NumberFormat('en-US')
export const formatCount = (value: number) => numberFormat.format(value)
/** "1 conversation", "3 conversations". */
export const formatCountOf = (value: number, one: string, many: string) =>
  `${formatCount(value)} ${value === 1 ? one : many}`

/** A share from 0 to 1 as a percentage; a dash when there is nothing to divide. */
export const formatRate = (value: number | null) =>
  value === null ? '—' : `${(value * 100).toFixed(value === 0 || value === 1 ? 0 : 1)}%`

/** A duration in seconds, the two largest units: "45 s", "3 min 20 s", "2 h 5 min"; a dash for none. */
export function formatSeconds(value: number | null): string {
  if (value === null) return '—'
  // Under ten seconds, tenths: an AI answers in about a second, and "1 s" twice on an axis says nothing.
  if (value < 9.95) return `${Number(value.toFixed(1))} s`
  const s = Math.round(value)
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`
  const m = Math.floor(s / 60)
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`
}

/** US dollars: cents, or four decimals under a dollar so that a small estimate is not shown as $0.00. */
export function formatUsd(value: number): string {
  if (value > 0 && value < 0.0001) return '< $0.0001'
  const digits = value !== 0 && Math.abs(value) < 1 ? 4 : 2
  return `$${value.toFixed(digits)}`
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** A bucket's label: "Nov 24" for a date, "14:00" for a local hour. */
export function formatBucket(bucket: string): string {
  if (bucket.length > 10) return bucket.slice(11, 16)
  return `${MONTHS[Number(bucket.slice(5, 7)) - 1]} ${Number(bucket.slice(8, 10))}`
}
