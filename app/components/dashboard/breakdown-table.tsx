import { Anchor, Paper, ScrollArea, Table, Text, Title } from '@mantine/core'
import { Link } from '@remix-run/react'
import { Suspense, useId } from 'react'
import { useNearViewport } from '~/components/hooks/use-near-viewport'
import type { Analytics } from '~/lib/analytics/analytics'
import { formatCount, formatRate, formatSeconds, formatUsd } from '~/lib/analytics/dashboard'
import classes from './dashboard.module.css'
import { TrendLine } from './lazy-charts'

type Row = Analytics['agents'][number] | Analytics['channels'][number]

/**
 * A row's messages per bucket: a sparkline with JavaScript (its numbers kept for screen readers), the numbers
 * without (dashboard.module.css).
 */
function Trend({ trend }: { trend: number[] }) {
  const [near, placeholder] = useNearViewport<HTMLDivElement>()
  return (
    <>
      <div aria-hidden="true" ref={placeholder} className={classes.trendSlot}>
        {near ? (
          <Suspense fallback={null}>
            <TrendLine trend={trend} />
          </Suspense>
        ) : null}
      </div>
      <Text size="xs" c="gray.7" maw={200} className={classes.forScreenReaders}>
        {trend.map(formatCount).join(', ')}
      </Text>
    </>
  )
}

/**
 * The per-agent or per-channel figures. A row's name filters the dashboard to it (the same GET form's parameter).
 */
export function BreakdownTable({
  title,
  rows,
  filterHref,
  nameOf,
  per,
}: {
  title: string
  rows: Row[]
  filterHref: (id: string) => string
  nameOf: (row: Row) => string
  per: string
}) {
  const titleId = useId()
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId} className={classes.deferred}>
      <Title order={2} size="h4" id={titleId} mb="sm">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text c="gray.7">Nothing in this period.</Text>
      ) : (
        <ScrollArea type="auto">
          <Table striped withTableBorder fz="sm" miw={720} aria-labelledby={titleId}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col" className={classes.num}>
                  Messages
                </Table.Th>
                <Table.Th scope="col" className={classes.num}>
                  AI answer rate
                </Table.Th>
                <Table.Th scope="col" className={classes.num}>
                  First response (median)
                </Table.Th>
                <Table.Th scope="col" className={classes.num}>
                  Tokens
                </Table.Th>
                <Table.Th scope="col" className={classes.num}>
                  Estimated cost
                </Table.Th>
                <Table.Th scope="col">{`Messages per ${per}`}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Th scope="row" fw={500}>
                    <Anchor component={Link} to={filterHref(row.id)} size="sm">
                      {nameOf(row)}
                    </Anchor>
                  </Table.Th>
                  <Table.Td className={classes.num}>{formatCount(row.received)}</Table.Td>
                  <Table.Td className={classes.num}>{formatRate(row.aiAnswerRate)}</Table.Td>
                  <Table.Td className={classes.num}>{formatSeconds(row.firstResponseMedianSeconds)}</Table.Td>
                  <Table.Td className={classes.num}>{formatCount(row.totalTokens)}</Table.Td>
                  <Table.Td className={classes.num}>{formatUsd(row.cost)}</Table.Td>
                  <Table.Td>
                    <Trend trend={row.trend} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </Paper>
  )
}
