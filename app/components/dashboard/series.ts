import type { AnalyticsPoint } from '~/lib/analytics/analytics'

/** What each chart draws, in order, with the words its table uses for the same columns. */
type Series = { key: keyof AnalyticsPoint; label: string; color: string }

export const OUTCOME_SERIES: Series[] = [
  { key: 'answeredByAi', label: 'Answered by AI', color: 'teal.6' },
  { key: 'answeredByPerson', label: 'Answered by a person', color: 'blue.6' },
  { key: 'notAnswered', label: 'Not answered', color: 'red.6' },
  { key: 'waiting', label: 'Waiting', color: 'gray.5' },
]

export const RESPONSE_SERIES: Series[] = [
  { key: 'firstResponseMedianSeconds', label: 'Median', color: 'blue.6' },
  { key: 'firstResponseP90Seconds', label: '90th percentile', color: 'orange.6' },
]

export const TOKEN_SERIES: Series[] = [
  { key: 'promptTokens', label: 'Prompt tokens', color: 'violet.6' },
  { key: 'completionTokens', label: 'Completion tokens', color: 'cyan.6' },
]

/** A chart's height with its legend (charts.tsx), which its placeholder keeps so that nothing moves when it is drawn. */
export const CHART_HEIGHT = 260
