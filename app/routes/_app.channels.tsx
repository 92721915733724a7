import type { MetaFunction } from '@remix-run/node'
import { PageHeader } from '~/components/layout/page-header'
import { PRODUCT_NAME } from '~/lib/constants'

export const meta: MetaFunction = () => [{ title: `Channels · ${PRODUCT_NAME}` }]

export default function ChannelsPage() {
  return <PageHeader title="Channels" subtitle="Manage all your connected social channels in one place" />
}
