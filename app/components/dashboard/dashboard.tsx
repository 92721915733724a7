import { Anchor, Stack, Text } from '@mantine/core'
import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { CONVERSATIONS_PATH } from '~/components/conversations/paths'
import type { Analytics } from '~/lib/analytics/analytics'
import { PLATFORM_LABELS } from '~/lib/channels/channels'
import { formatBucket, formatCount, formatSeconds } from '~/lib/analytics/dashboard'
import { BreakdownTable } from './breakdown-table'
import { ChartPanel, SeriesTable } from './chart-panel'
import { FailureReasons } from './failure-reasons'
import { Figures } from './figures'
import { FiltersForm } from './filters-form'
import { OutcomesChart, ResponseTimeChart, TokensChart } from './lazy-charts'
import { OUTCOME_SERIES, RESPONSE_SERIES, TOKEN_SERIES } from './series'

type Form = { period: string; from: string; to: string; channelId: string; agentId: string }

/** The dashboard's query string for the form's period with other filters. */
function hrefWith(form: Form, changes: Partial<Form>) {
  const next = { ...form, ...changes }
  const params = new URLSearchParams({ period: next.period })
  if (next.period === 'custom') {
    params.set('from', next.from)
    params.set('to', next.to)
  }
  if (next.channelId) params.set('channelId', next.channelId)
  if (next.agentId) params.set('agentId', next.agentId)
  return `/?${params}`
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)

/** The figures of a period: the filters, the figure cards, the charts (with their tables) and the breakdowns. */
export function Dashboard({
  form,
  channels,
  agents,
  errors,
  timeZone,
  analytics,
  loading,
  loadingFallback,
}: {
  form: Form
  channels: { id: string; name: string }[]
  agents: { id: string; name: string }[]
  errors: string[]
  timeZone: string
  analytics: Analytics | null
  loading: boolean
  loadingFallback: ReactNode
}) {
  const body = (() => {
    if (loading) return loadingFallback
    if (!analytics) return null
    const { totals, series, period } = analytics
    const hourly = period.granularity === 'hour'
    const per = hourly ? 'hour' : 'day'
    const attention = new URLSearchParams({ state: 'needs_attention' })
    if (period.channelId) attention.set('channelId', period.channelId)
    const busiest = series.reduce(
      (best, point) => (point.received > (best?.received ?? -1) ? point : best),
      series[0],
    )
    return (
      <Stack gap="md">
        <Text size="sm" c="gray.7">
          {period.from === period.to
            ? formatBucket(period.from)
            : `${formatBucket(period.from)} – ${formatBucket(period.to)}`}
          {`, ${period.from.slice(0, 4)} · times in `}
          <Anchor component={Link} to="/settings" size="sm" underline="always">
            {timeZone}
          </Anchor>
        </Text>
        <Figures totals={totals} attentionHref={`${CONVERSATIONS_PATH}?${attention}`} />
        <ChartPanel
          title={`Messages per ${per} by outcome`}
          summary={`${formatCount(totals.received)} received: ${formatCount(totals.answeredByAi)} answered by AI, ${formatCount(totals.answeredByPerson)} by a person, ${formatCount(totals.notAnswered)} not answered.${busiest && busiest.received > 0 ? ` Busiest: ${formatBucket(busiest.bucket)} (${formatCount(busiest.received)}).` : ''}`}
          chart={<OutcomesChart series={series} />}
          table={
            <SeriesTable
              caption={`Messages per ${per} by outcome`}
              series={series}
              columns={[{ key: 'received', label: 'Received' }, ...OUTCOME_SERIES]}
              format={(value) => formatCount(value ?? 0)}
              hourly={hourly}
            />
          }
        />
        <ChartPanel
          title={`Response time per ${per}`}
          summary={`First response over the period: median ${formatSeconds(totals.firstResponseMedianSeconds)}, 90th percentile ${formatSeconds(totals.firstResponseP90Seconds)}.`}
          chart={<ResponseTimeChart series={series} />}
          table={
            <SeriesTable
              caption={`First response time per ${per}`}
              series={series}
              columns={RESPONSE_SERIES}
              format={formatSeconds}
              hourly={hourly}
            />
          }
        />
        <ChartPanel
          title={`Tokens per ${per}`}
          summary={`${formatCount(totals.totalTokens)} tokens: ${formatCount(sum(series.map((p) => p.promptTokens)))} prompt, ${formatCount(sum(series.map((p) => p.completionTokens)))} completion.`}
          chart={<TokensChart series={series} />}
          table={
            <SeriesTable
              caption={`Tokens per ${per}`}
              series={series}
              columns={TOKEN_SERIES}
              format={(value) => formatCount(value ?? 0)}
              hourly={hourly}
            />
          }
        />
        <BreakdownTable
          title="By agent"
          rows={analytics.agents}
          nameOf={(row) => row.name}
          per={per}
          filterHref={(id) => hrefWith(form, { agentId: id })}
        />
        <BreakdownTable
          title="By channel"
          rows={analytics.channels}
          nameOf={(row) =>
            'platformName' in row ? `${row.name} (${PLATFORM_LABELS[row.platformName]})` : row.name
          }
          filterHref={(id) => hrefWith(form, { channelId: id })}
          per={per}
        />
        <FailureReasons reasons={analytics.failureReasons} />
      </Stack>
    )
  })()

  return (
    <>
      <FiltersForm values={form} channels={channels} agents={agents} errors={errors} busy={loading} />
      {body}
    </>
  )
}
