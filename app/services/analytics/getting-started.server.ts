import { eq, sql } from 'drizzle-orm'
import { agents, channels, messages, organizations } from '~/db/schema'
import type { GettingStarted } from '~/lib/analytics/dashboard'
import type { OrganizationScope } from '~/services/organizations/scope.server'

/**
 * The dashboard's getting-started checklist (issue #19), derived from what exists, so that it ticks itself as the
 * steps happen: a channel connected, an agent created, an agent assigned to a channel, a channel's webhook
 * subscription on, a customer message received. One statement of probes that each stop at their first row.
 * `channelId`: the organization's first channel, where the assign and webhook steps are done.
 */
export async function getGettingStarted(scope: OrganizationScope): Promise<GettingStarted> {
  const { db, organizationId: org } = scope
  const [row] = await db
    .select({
      channelId: sql<string | null>`(select ${channels.id} from ${channels}
        where ${channels.organizationId} = ${org} order by ${channels.createdAt}, ${channels.id} limit 1)`,
      agentCreated: sql<boolean>`exists (select 1 from ${agents} where ${agents.organizationId} = ${org})`,
      agentAssigned: sql<boolean>`exists (select 1 from ${channels}
        where ${channels.organizationId} = ${org} and ${channels.agentId} is not null)`,
      webhookOn: sql<boolean>`exists (select 1 from ${channels}
        where ${channels.organizationId} = ${org} and ${channels.webhookSubscribed})`,
      messageReceived: sql<boolean>`exists (select 1 from ${messages}
        where ${messages.organizationId} = ${org} and ${messages.direction} = 'inbound')`,
    })
    .from(organizations)
    .where(eq(organizations.id, org))
  const steps = {
    channelConnected: Boolean(row?.channelId),
    agentCreated: Boolean(row?.agentCreated),
    agentAssigned: Boolean(row?.agentAssigned),
    webhookOn: Boolean(row?.webhookOn),
    messageReceived: Boolean(row?.messageReceived),
  }
  return { steps, channelId: row?.channelId ?? null, complete: Object.values(steps).every(Boolean) }
}
