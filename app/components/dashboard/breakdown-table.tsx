import { Anchor, Paper, ScrollArea, Table, Text, Title, VisuallyHidden } from '@mantine/core'
import { Link } from '@remix-run/react'
import { Suspense, useId } from 'react'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { useNearViewport } from '~/components/hooks/use-near-viewport'
import type { Analytics } from '~/lib/analytics'
import { formatCount, formatRate, formatSeconds, formatUsd } from '~/lib/dashboard'
import { TrendLine } from './lazy-charts'

type Row = Analytics['agents'][number] | Analytics['channels'][number]

/** A row's messages per bucket: a sparkline once hydrated (its numbers kept for screen readers), else the numbers. */
function Trend({ trend }: { trend: number[] }) {
  const hydrated = useHydrated()
  const [near, placeholder] = useNearViewport<HTMLDivElement>()
  const numbers = trend.map(formatCount).join(', ')
  if (!hydrated) {
    return (
      <Text size="xs" c="gray.7" maw={200}>
        {numbers}
      </Text>
    )
  }
  return (
    <>
      <div aria-hidden="true" ref={placeholder} style={{ minHeight: 28, minWidth: 96 }}>
        {near ? (
          <Suspense fallback={null}>
            <TrendLine trend={trend} />
          </Suspense>
        ) : null}
      </div>
      <VisuallyHidden>{numbers}</VisuallyHidden>
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
    <Paper withBorder p="md" component="section" aria-labelledby={titleId}>
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
                <Table.Th scope="col" ta="right">
                  Messages
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  AI answer rate
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  First response (median)
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  Tokens
                </Table.Th>
                <Table.Th scope="col" ta="right">
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
                  <Table.Td ta="right">{formatCount(row.received)}</Table.Td>
                  <Table.Td ta="right">{formatRate(row.aiAnswerRate)}</Table.Td>
                  <Table.Td ta="right">{formatSeconds(row.firstResponseMedianSeconds)}</Table.Td>
                  <Table.Td ta="right">{formatCount(row.totalTokens)}</Table.Td>
                  <Table.Td ta="right">{formatUsd(row.cost)}</Table.Td>
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
