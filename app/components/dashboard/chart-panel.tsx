import { Paper, ScrollArea, Skeleton, Table, Text, Title, VisuallyHidden } from '@mantine/core'
import { Suspense, useId, type ReactNode } from 'react'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { useNearViewport } from '~/components/hooks/use-near-viewport'
import type { AnalyticsPoint } from '~/lib/analytics'
import { formatBucket } from '~/lib/dashboard'
import { CHART_HEIGHT } from './series'

/**
 * A chart as progressive enhancement (docs/decisions/047): the server renders the figures as a table, which is all
 * a browser without JavaScript shows. Once the page is hydrated the chart is drawn in its place (loaded lazily) and
 * the table stays in the page, visually hidden, for screen readers; the chart's SVG is hidden from them. A chart
 * is drawn when it comes near the viewport (a placeholder of its height until then), so that loading the page is
 * not one long task drawing charts no one sees yet.
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
  const hydrated = useHydrated()
  const [near, placeholder] = useNearViewport<HTMLDivElement>()
  const titleId = useId()
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId}>
      <Title order={2} size="h4" id={titleId}>
        {title}
      </Title>
      <Text size="sm" c="gray.7" mb="sm">
        {summary}
      </Text>
      {hydrated ? (
        <>
          <div aria-hidden="true" data-chart ref={placeholder} style={{ minHeight: CHART_HEIGHT }}>
            {near ? <Suspense fallback={<Skeleton h={CHART_HEIGHT} />}>{chart}</Suspense> : null}
          </div>
          <VisuallyHidden>{table}</VisuallyHidden>
        </>
      ) : (
        <ScrollArea.Autosize mah={320}>{table}</ScrollArea.Autosize>
      )}
    </Paper>
  )
}

type Column = { key: keyof AnalyticsPoint; label: string }

/** A chart's figures, one row per bucket: the chart's accessible (and no-JavaScript) form. */
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
    <Table striped withTableBorder fz="sm" captionSide="top">
      <Table.Caption>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{hourly ? 'Hour' : 'Date'}</Table.Th>
          {columns.map((column) => (
            <Table.Th scope="col" key={column.key} ta="right">
              {column.label}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {series.map((point) => (
          <Table.Tr key={point.bucket}>
            <Table.Th scope="row" fw={400}>
              {formatBucket(point.bucket)}
            </Table.Th>
            {columns.map((column) => {
              const value = point[column.key]
              return (
                <Table.Td key={column.key} ta="right">
                  {format(typeof value === 'number' ? value : null)}
                </Table.Td>
              )
            })}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}
