import { eq, sql } from 'drizzle-orm'
import { agentRuns, agents, channels, messages, organizations } from '~/db/schema'
import type { GettingStarted } from '~/lib/analytics/dashboard'
import type { OrganizationScope } from '~/services/organizations/scope.server'

/**
 * The dashboard's getting-started checklist (issues #19 and #34), derived from what exists, so that it ticks
 * itself as the steps happen: a channel connected, an agent created, the agent tried (it has run, in a test or
 * for a customer), a channel live (an enabled agent on a channel that receives its messages), a customer message
 * received. One statement of probes that each stop at their first row. `channelId` and `agentId`: the
 * organization's first channel and agent, where the steps are done.
 */
export async function getGettingStarted(scope: OrganizationScope): Promise<GettingStarted> {
  const { db, organizationId: org } = scope
  const [row] = await db
    .select({
      channelId: sql<string | null>`(select ${channels.id} from ${channels}
        where ${channels.organizationId} = ${org} order by ${channels.createdAt}, ${channels.id} limit 1)`,
      agentId: sql<string | null>`(select ${agents.id} from ${agents}
        where ${agents.organizationId} = ${org} order by ${agents.createdAt}, ${agents.id} limit 1)`,
      agentTried: sql<boolean>`exists (select 1 from ${agentRuns} where ${agentRuns.organizationId} = ${org})`,
      live: sql<boolean>`exists (select 1 from ${channels}
        where ${channels.organizationId} = ${org} and ${channels.agentId} is not null
          and ${channels.agentEnabled} and ${channels.webhookSubscribed})`,
      messageReceived: sql<boolean>`exists (select 1 from ${messages}
        where ${messages.organizationId} = ${org} and ${messages.direction} = 'inbound')`,
    })
    .from(organizations)
    .where(eq(organizations.id, org))
  const steps = {
    channelConnected: Boolean(row?.channelId),
    agentCreated: Boolean(row?.agentId),
    agentTried: Boolean(row?.agentTried),
    live: Boolean(row?.live),
    messageReceived: Boolean(row?.messageReceived),
  }
  return {
    steps,
    channelId: row?.channelId ?? null,
    agentId: row?.agentId ?? null,
    complete: Object.values(steps).every(Boolean),
  }
}
