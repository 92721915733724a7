import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { channels, conversations, messages, notifications, organizations } from '~/db/schema'
import { channelDisplayName, type ChannelMetadata } from '~/lib/channels/channels'
import { NOTIFICATION_LIST_LIMIT, type NotificationItem } from '~/lib/notifications/notifications'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { notificationLines, notificationTitle } from './email.server'

// The bell (docs/decisions/068): the member's own notifications in the scope's organization, never another's.

type Member = Pick<OrganizationScope, 'userId' | 'organizationId'>

const mine = (member: Member) =>
  and(
    eq(notifications.userId, member.userId),
    eq(notifications.organizationId, member.organizationId),
    eq(notifications.inApp, true),
  )

/**
 * How many of the member's notifications are unread (the bell's count). Takes the member's ids, not a scope: the
 * layout reads it for the organization it has just resolved among the user's own.
 */
export async function countUnreadNotifications(db: Database, member: Member): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(notifications)
    .where(and(mine(member), isNull(notifications.readAt)))
  return row?.count ?? 0
}

/** The member's latest notifications, newest first, and how many are unread. */
export async function listNotifications(
  scope: OrganizationScope,
  { unreadOnly = false }: { unreadOnly?: boolean } = {},
): Promise<{ items: NotificationItem[]; unread: number }> {
  const [rows, unread] = await Promise.all([
    scope.db
      .select({
        id: notifications.id,
        event: notifications.event,
        reason: notifications.reason,
        eventCount: notifications.eventCount,
        conversationId: notifications.conversationId,
        channelId: notifications.channelId,
        customerName: conversations.customerName,
        lastMessage: lastCustomerMessage(scope.db),
        channelType: channels.channelType,
        channelMetadata: channels.metadata,
        organizationName: organizations.name,
        createdAt: notifications.createdAt,
        updatedAt: notifications.updatedAt,
        readAt: notifications.readAt,
      })
      .from(notifications)
      .innerJoin(organizations, eq(organizations.id, notifications.organizationId))
      .leftJoin(conversations, eq(conversations.id, notifications.conversationId))
      .leftJoin(channels, eq(channels.id, notifications.channelId))
      .where(and(mine(scope), unreadOnly ? isNull(notifications.readAt) : undefined))
      // Ties (events fanned out in one round) keep one order from read to read.
      .orderBy(sql`${notifications.updatedAt} desc nulls first`, desc(notifications.id))
      .limit(NOTIFICATION_LIST_LIMIT),
    countUnreadNotifications(scope.db, scope),
  ])
  const items = rows.map(({ channelType, channelMetadata, ...rest }) => {
    const row = { ...rest, channelName: channelNameOf(channelType, channelMetadata) }
    return {
      id: row.id,
      event: row.event,
      title: notificationTitle(row),
      // The bell names the reason and the customer's words; the organization is the one on screen.
      body: [row.channelName ? `On ${row.channelName}` : null, ...notificationLines(row).slice(1)]
        .filter(Boolean)
        .join(' · '),
      conversationId: row.conversationId,
      channelId: row.channelId,
      events: row.eventCount,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      read: row.readAt !== null,
    }
  })
  return { items, unread }
}

/** Marks the member's notifications read: those named (others' ids change nothing), or all. Returns the unread count. */
export async function markNotificationsRead(
  scope: OrganizationScope,
  ids: string[] | 'all',
): Promise<{ unread: number }> {
  await scope.db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(
      and(
        mine(scope),
        isNull(notifications.readAt),
        ids === 'all' ? undefined : inArray(notifications.id, ids),
      ),
    )
  return { unread: await countUnreadNotifications(scope.db, scope) }
}

/** A channel's name as every screen shows it; null: no channel. */
export function channelNameOf(
  channelType: Parameters<typeof channelDisplayName>[0]['channelType'] | null,
  metadata: unknown,
): string | null {
  return channelType ? channelDisplayName({ channelType, metadata: metadata as ChannelMetadata }) : null
}

/** What the customer last wrote in the notification's conversation (not the agent's handoff words after it). */
export function lastCustomerMessage(db: Database) {
  const last = db
    .select({ text: messages.text })
    .from(messages)
    .where(and(eq(messages.conversationId, notifications.conversationId), eq(messages.direction, 'inbound')))
    .orderBy(desc(messages.sequence))
    .limit(1)
  return sql<string | null>`(${last})`
}
