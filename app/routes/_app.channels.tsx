import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { ChannelsScreen } from '~/components/channels/channels-screen'
import { PRODUCT_NAME } from '~/lib/shared/constants'
import type { MetaClientConfig } from '~/lib/channels/facebook'
import { isPolled, listChannels, toChannelView } from '~/services/channels/channels.server'
import { listChannelsHealth } from '~/services/channels/health.server'
import { listAgents } from '~/services/agents/agents.server'
import type { Config } from '~/runtime/config.server'
import { getCurrentScope } from '~/http/organization.server'
import { getRuntime } from '~/runtime/runtime.server'

export const meta: MetaFunction = () => [{ title: `Channels · ${PRODUCT_NAME}` }]

/** What the Facebook SDK island needs of the Meta app: public identifiers only, never the secret. */
const metaClientConfig = (meta: Config['meta']): MetaClientConfig => ({
  configured: meta.configured,
  appId: meta.appId,
  sdkUrl: meta.sdkUrl,
  whatsappConfigId: meta.whatsappConfigId ?? null,
  messageOrigins: meta.signupMessageOrigins,
})

/** The channels as the browser may see them (toChannelView: no token, no secret). */
export async function loader({ request }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  const { config } = await getRuntime()
  const meta = metaClientConfig(config.meta)
  if (!scope) return { hasOrganization: false, channels: [], meta }
  const [rows, health, agents] = await Promise.all([
    listChannels(scope),
    listChannelsHealth(scope),
    listAgents(scope),
  ])
  const agentNames = new Map(agents.items.map((agent) => [agent.id, agent.name]))
  const channels = rows.map((channel) => ({
    ...toChannelView(channel, config),
    polled: isPolled(channel, config),
    health: health.find((entry) => entry.channelId === channel.id),
    agentName: channel.agentId ? agentNames.get(channel.agentId) : undefined,
  }))
  return { hasOrganization: true, channels, meta }
}

export default function ChannelsPage() {
  const { channels, hasOrganization, meta } = useLoaderData<typeof loader>()
  return <ChannelsScreen channels={channels} hasOrganization={hasOrganization} meta={meta} />
}
