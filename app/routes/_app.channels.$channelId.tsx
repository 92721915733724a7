import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData, useOutlet } from '@remix-run/react'
import { ChannelDetailsPanel } from '~/components/channels/channel-details-panel'
import type { AgentOption } from '~/components/channels/types'
import { dialogHandle } from '~/components/dialogs/route-dialog'
import { getAgent, listAgents } from '~/services/agents/agents.server'
import { getChannel, isPolled, toChannelView } from '~/services/channels/channels.server'
import { getChannelHealth } from '~/services/channels/health.server'
import { listMemberOptions } from '~/services/organizations/member-lookup.server'
import { nullIfNotFound } from '~/utils/errors'
import { findInCurrentScope } from '~/http/organization.server'
import { getRuntime } from '~/runtime/runtime.server'

export const handle = dialogHandle({ title: 'Channel Details' })

const toOption = ({ id, name, description, status }: AgentOption): AgentOption => ({
  id,
  name,
  description,
  status,
})

/**
 * The channel (no token, no secret), the organization's active agents for the Select Agent dropdown, the
 * assigned agent, which keeps its name after it is deactivated, and the members who may be its default assignee.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { config } = await getRuntime()
  const details = await findInCurrentScope(request, async (scope) => {
    const [channel, active, health, members] = await Promise.all([
      getChannel(scope, params.channelId ?? ''),
      listAgents(scope, { status: 'active' }),
      getChannelHealth(scope, params.channelId ?? ''),
      listMemberOptions(scope),
    ])
    const agents = active.items.map(toOption)
    const { agentId } = channel
    const assignedAgent = agentId
      ? (agents.find((agent) => agent.id === agentId) ??
        (await getAgent(scope, agentId).then(toOption, nullIfNotFound)))
      : null
    const view = {
      ...toChannelView(channel, config),
      polled: isPolled(channel, config),
      health,
      members: members.map(({ uid, name, me }) => ({ uid, name, me })),
      defaultAssigneeUid: members.find((member) => member.id === channel.defaultAssigneeId)?.uid ?? null,
    }
    return { channel: view, agents, assignedAgent }
  })
  return details ?? { channel: null, agents: [], assignedAgent: null }
}

/**
 * The Channel Details dialog. Its changes post to the routes below it (webhook, assign, unassign, agent-enabled);
 * without JavaScript the page then shown is one of those, which renders the details with its answer.
 */
export default function ChannelDetailsDialog() {
  const details = useLoaderData<typeof loader>()
  return useOutlet(details) ?? <ChannelDetailsPanel {...details} />
}
