import { Paper, Skeleton, Text, Title } from '@mantine/core'
import { Suspense, useId, type CSSProperties, type ReactNode } from 'react'
import { useNearViewport } from '~/components/hooks/use-near-viewport'
import type { AnalyticsPoint } from '~/lib/analytics/analytics'
import { formatBucket } from '~/lib/analytics/dashboard'
import classes from './dashboard.module.css'
import { CHART_HEIGHT } from './series'

/**
 * A chart as progressive enhancement (docs/decisions/047): the figures are a table, which is all a browser without
 * JavaScript shows (dashboard.module.css). With JavaScript the table stays in the page for screen readers only and
 * the chart is drawn in its place (loaded lazily, its SVG hidden from screen readers) when it comes near the
 * viewport (a placeholder of its height until then), so that loading the page is not one long task drawing charts
 * no one sees yet. The server's tree and the hydrated one are the same: hydrating re-renders nothing.
 */
export function ChartPanel({
  title,
  summary,
  table,
  chart,
}: {
  title: string
  summary: string
  table: ReactNode
  chart: ReactNode
}) {
  const [near, placeholder] = useNearViewport<HTMLDivElement>()
  const titleId = useId()
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId} className={classes.deferred}>
      <Title order={2} size="h4" id={titleId}>
        {title}
      </Title>
      <Text size="sm" c="gray.7" mb="sm">
        {summary}
      </Text>
      <div
        aria-hidden="true"
        data-chart
        ref={placeholder}
        className={classes.chartSlot}
        style={{ '--chart-height': `${CHART_HEIGHT}px` } as CSSProperties}
      >
        {near ? <Suspense fallback={<Skeleton h={CHART_HEIGHT} />}>{chart}</Suspense> : null}
      </div>
      <div className={`${classes.forScreenReaders} ${classes.tableScroll}`}>{table}</div>
    </Paper>
  )
}

type Column = { key: keyof AnalyticsPoint; label: string }

/**
 * A chart's figures, one row per bucket: the chart's accessible (and no-JavaScript) form. Plain elements: a month
 * of days is a few hundred cells, read by screen readers and seen only without JavaScript.
 */
export function SeriesTable({
  caption,
  series,
  columns,
  format,
  hourly,
}: {
  caption: string
  series: AnalyticsPoint[]
  columns: Column[]
  format: (value: number | null) => string
  hourly: boolean
}) {
  return (
    <table className={classes.seriesTable}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{hourly ? 'Hour' : 'Date'}</th>
          {columns.map((column) => (
            <th scope="col" key={column.key} className={classes.num}>
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {series.map((point) => (
          <tr key={point.bucket}>
            <th scope="row">{formatBucket(point.bucket)}</th>
            {columns.map((column) => {
              const value = point[column.key]
              return (
                <td key={column.key} className={classes.num}>
                  {format(typeof value === 'number' ? value : null)}
                </td>
              )
            })}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
