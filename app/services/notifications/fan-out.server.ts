import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import {
  conversations,
  memberships,
  notificationDeliveries,
  notificationEvents,
  notificationPreferences,
  notifications,
  pushSubscriptions,
  telegramAlertLinks,
  users,
} from '~/db/schema'
import { INBOX_EVENTS_CHANNEL } from '~/services/conversations/inbox-events.server'
import {
  NOTIFICATION_FOLD_MS,
  quietUntil,
  type NotificationEvent,
  type NotificationMedium,
} from '~/lib/notifications/notifications'
import { preferencesOf } from './preferences.server'

// The worker's first half (docs/decisions/068): each event the triggers wrote becomes one notification per member
// who is to be told (or joins the one they got for the same conversation in the last 10 minutes), and one
// delivery per medium they want. The event is marked done in the same transaction: it is fanned out once.

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]

type PendingEvent = {
  id: number
  organizationId: string
  event: NotificationEvent
  conversationId: string | null
  channelId: string | null
  userId: string | null
  reason: string | null
  assigneeId: string | null
}

type Member = {
  organizationId: string
  userId: string
  role: string
  email: string | null
  prefs: ReturnType<typeof preferencesOf>
  /** The member has a browser that takes push. */
  pushable: boolean
  /** The member linked Telegram in this organization. */
  telegram: boolean
  quiet: { start: number; end: number; timeZone: string } | null
}

export type FanOutOptions = {
  /** Whether email can be sent (SMTP_URL is set): no email delivery is made otherwise. */
  email: boolean
  /** Events a transaction takes at most. */
  limit?: number
  now?: Date
}

/** Fans out the events not yet done, a batch at a time; returns how many events it took. */
export async function fanOutNotificationEvents(db: Database, options: FanOutOptions): Promise<number> {
  return db.transaction(async (tx) => {
    const events = await takeEvents(tx, options.limit ?? 100)
    if (events.length === 0) return 0
    const members = await membersOf(tx, [...new Set(events.map((e) => e.organizationId))])
    const now = options.now ?? new Date()
    const told = new Set<string>()
    for (const event of events) {
      for (const member of recipientsOf(event, members)) {
        const wanted = wantedMedia(member, event.event, options.email)
        if (wanted.length === 0) continue
        await notify(tx, event, member, wanted, now)
        told.add(`${event.organizationId} ${member.userId}`)
      }
    }
    await tx
      .update(notificationEvents)
      .set({ processedAt: sql`now()` })
      .where(
        inArray(
          notificationEvents.id,
          events.map((e) => e.id),
        ),
      )
    // The bells of those told: heard by the web processes once this transaction commits.
    for (const key of told) {
      const [organizationId, userId] = key.split(' ')
      await tx.execute(
        sql`select pg_notify(${INBOX_EVENTS_CHANNEL}, ${JSON.stringify({ organizationId, notifiedUserId: userId })})`,
      )
    }
    return events.length
  })
}

/** The oldest events not yet done, locked: two workers never take the same one. */
async function takeEvents(tx: Transaction, limit: number): Promise<PendingEvent[]> {
  return tx
    .select({
      id: notificationEvents.id,
      organizationId: notificationEvents.organizationId,
      event: notificationEvents.event,
      conversationId: notificationEvents.conversationId,
      channelId: notificationEvents.channelId,
      userId: notificationEvents.userId,
      reason: notificationEvents.reason,
      assigneeId: conversations.assigneeId,
    })
    .from(notificationEvents)
    .leftJoin(conversations, eq(conversations.id, notificationEvents.conversationId))
    .where(isNull(notificationEvents.processedAt))
    .orderBy(asc(notificationEvents.id))
    .limit(limit)
    .for('update', { of: notificationEvents, skipLocked: true })
}

/** The members of these organizations with their address and choices. */
async function membersOf(tx: Transaction, organizationIds: string[]): Promise<Member[]> {
  const rows = await tx
    .select({
      organizationId: memberships.organizationId,
      userId: memberships.userId,
      role: memberships.role,
      email: users.email,
      choices: notificationPreferences.choices,
      quietStart: notificationPreferences.quietStart,
      quietEnd: notificationPreferences.quietEnd,
      timeZone: notificationPreferences.timeZone,
      pushable: sql<boolean>`exists (select 1 from ${pushSubscriptions} where ${pushSubscriptions.userId} = ${memberships.userId})`,
      telegram: sql<boolean>`exists (select 1 from ${telegramAlertLinks} where ${telegramAlertLinks.organizationId} = ${memberships.organizationId} and ${telegramAlertLinks.userId} = ${memberships.userId} and ${telegramAlertLinks.chatId} is not null)`,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, memberships.userId))
    .where(inArray(memberships.organizationId, organizationIds))
  return rows.map((row) => ({
    organizationId: row.organizationId,
    userId: row.userId,
    role: row.role,
    email: row.email,
    prefs: preferencesOf(row.choices === null ? null : { ...row, timeZone: row.timeZone ?? 'UTC' }),
    pushable: row.pushable,
    telegram: row.telegram,
    quiet:
      row.quietStart != null && row.quietEnd != null
        ? { start: row.quietStart, end: row.quietEnd, timeZone: row.timeZone ?? 'UTC' }
        : null,
  }))
}

/**
 * Who is told: the member the event names (the assignee); else a conversation's assignee; else every member
 * (a conversation nobody answers) or, for a channel, its owners. Never someone who has left.
 */
export function recipientsOf(event: PendingEvent, members: Member[]): Member[] {
  const ofOrganization = members.filter((m) => m.organizationId === event.organizationId)
  const named = event.userId ?? (event.event === 'needs_attention' ? event.assigneeId : null)
  if (named) return ofOrganization.filter((m) => m.userId === named)
  if (event.event === 'channel_attention') return ofOrganization.filter((m) => m.role === 'owner')
  return ofOrganization
}

function wantedMedia(member: Member, event: NotificationEvent, emailOn: boolean): NotificationMedium[] {
  const choice = member.prefs.choices[event]
  const media: NotificationMedium[] = []
  if (choice.app) media.push('app')
  if (choice.email && emailOn && member.email) media.push('email')
  if (choice.push && member.pushable) media.push('push')
  if (choice.telegram && member.telegram) media.push('telegram')
  return media
}

/** One member's notification of the event: folded into their recent one of the conversation, or a new one. */
async function notify(
  tx: Transaction,
  event: PendingEvent,
  member: Member,
  media: NotificationMedium[],
  now: Date,
) {
  const inApp = media.includes('app')
  const recent = event.conversationId
    ? await tx
        .select({ id: notifications.id })
        .from(notifications)
        .where(
          and(
            eq(notifications.userId, member.userId),
            eq(notifications.conversationId, event.conversationId),
            gt(notifications.createdAt, new Date(now.getTime() - NOTIFICATION_FOLD_MS)),
          ),
        )
        .orderBy(desc(notifications.createdAt))
        .limit(1)
    : []
  let notificationId = recent[0]?.id
  if (notificationId) {
    await tx
      .update(notifications)
      .set({
        event: event.event,
        reason: event.reason,
        eventCount: sql`${notifications.eventCount} + 1`,
        inApp: sql`${notifications.inApp} or ${inApp}`,
        updatedAt: now,
        readAt: null,
      })
      .where(eq(notifications.id, notificationId))
  } else {
    const [row] = await tx
      .insert(notifications)
      .values({
        organizationId: event.organizationId,
        userId: member.userId,
        event: event.event,
        reason: event.reason,
        conversationId: event.conversationId,
        channelId: event.channelId,
        inApp,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: notifications.id })
    notificationId = row.id
  }
  // A folded event adds no second email or push: the one already made says the latest when it goes.
  const outside = media.filter((medium) => medium !== 'app')
  if (outside.length === 0) return
  const dueAt = quietUntil(now, member.quiet) ?? now
  await tx
    .insert(notificationDeliveries)
    .values(outside.map((medium) => ({ notificationId, userId: member.userId, medium, dueAt })))
    .onConflictDoNothing()
}
