import { BarChart, LineChart, Sparkline } from '@mantine/charts'
import type { AnalyticsPoint } from '~/lib/analytics/analytics'
import { formatBucket, formatCount, formatSeconds } from '~/lib/analytics/dashboard'
import { CHART_HEIGHT, OUTCOME_SERIES, RESPONSE_SERIES, TOKEN_SERIES } from './series'

/*
 * The dashboard's charts (@mantine/charts over recharts). Only the dashboard imports this module, and only through
 * React.lazy (lazy-charts.tsx), so recharts is a chunk of its own that no other page loads. Each chart is drawn
 * beside its table (chart-panel.tsx), which is what screen readers read: the SVG itself is hidden from them.
 */

const rows = (series: AnalyticsPoint[]) =>
  series.map((point) => ({ ...point, label: formatBucket(point.bucket) }))

/** A stacked bar per bucket, one segment per series (messages by outcome, tokens by kind). */
function StackedBars({
  series,
  segments,
}: {
  series: AnalyticsPoint[]
  segments: readonly { key: string; label: string; color: string }[]
}) {
  return (
    <BarChart
      h={CHART_HEIGHT}
      data={rows(series)}
      dataKey="label"
      type="stacked"
      withLegend
      legendProps={{ verticalAlign: 'bottom' }}
      valueFormatter={formatCount}
      yAxisProps={{ allowDecimals: false }}
      series={segments.map(({ key, label, color }) => ({ name: key, label, color }))}
    />
  )
}

export function OutcomesChart({ series }: { series: AnalyticsPoint[] }) {
  return <StackedBars series={series} segments={OUTCOME_SERIES} />
}

export function ResponseTimeChart({ series }: { series: AnalyticsPoint[] }) {
  return (
    <LineChart
      h={CHART_HEIGHT}
      data={rows(series)}
      dataKey="label"
      withLegend
      legendProps={{ verticalAlign: 'bottom' }}
      connectNulls
      curveType="linear"
      valueFormatter={(value) => formatSeconds(value)}
      series={RESPONSE_SERIES.map(({ key, label, color }) => ({ name: key, label, color }))}
    />
  )
}

export function TokensChart({ series }: { series: AnalyticsPoint[] }) {
  return <StackedBars series={series} segments={TOKEN_SERIES} />
}

export function TrendLine({ trend }: { trend: number[] }) {
  return (
    <Sparkline
      w={96}
      h={28}
      data={trend}
      curveType="linear"
      color="blue.6"
      fillOpacity={0.2}
      strokeWidth={1.5}
    />
  )
}
