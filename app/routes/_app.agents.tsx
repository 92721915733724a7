import type { MetaFunction } from '@remix-run/node'
import { PageHeader } from '~/components/layout/page-header'
import { PRODUCT_NAME } from '~/lib/constants'

export const meta: MetaFunction = () => [{ title: `Agents · ${PRODUCT_NAME}` }]

export default function AgentsPage() {
  return <PageHeader title="Agents" subtitle="Manage your AI agents for automated replies" />
}
