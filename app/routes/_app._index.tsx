import { Paper, Text } from '@mantine/core'
import type { MetaFunction } from '@remix-run/node'
import { PageHeader } from '~/components/layout/page-header'
import { PRODUCT_NAME } from '~/lib/constants'

export const meta: MetaFunction = () => [{ title: `Dashboard · ${PRODUCT_NAME}` }]

export default function DashboardPage() {
  return (
    <>
      <PageHeader title="Dashboard" subtitle={`Welcome to ${PRODUCT_NAME}.`} />
      <Paper withBorder p="lg">
        <Text c="gray.7">Your overview will appear here.</Text>
      </Paper>
    </>
  )
}
