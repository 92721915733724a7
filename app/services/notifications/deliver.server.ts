import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import {
  channels,
  conversations,
  notificationDeliveries,
  notifications,
  organizations,
  users,
} from '~/db/schema'
import type { Mailer } from '~/integrations/email/mailer.server'
import type { PushSender } from '~/integrations/push/web-push.server'
import {
  NOTIFICATION_RETRY,
  retryAt,
  type NotificationDeliveryMedium,
} from '~/lib/notifications/notifications'
import { pushToMember } from './push.server'
import { telegramAlertText, telegramToMember, type TelegramAlertDeps } from './telegram-alerts.server'
import type { Logger } from '~/utils/logger.server'
import { channelNameOf, lastCustomerMessage } from './bell.server'
import { composeEmail, type EmailedNotification } from './email.server'

// The worker's second half (docs/decisions/068): the deliveries that are due, taken and marked `sending` in one
// statement before anything is sent, so that a process that dies after sending never sends again; one email per
// member (a digest when several are due at once); a refusal is tried again later, and holds up no other.

export type DeliverDeps = {
  db: Database
  /** undefined: email is off (no SMTP_URL); what was due fails with that reason. */
  mailer?: Mailer
  /** Web Push (VAPID); undefined: push deliveries fail. */
  push?: PushSender
  /** Telegram alerts, from the bot each member linked; undefined: they fail. */
  telegram?: TelegramAlertDeps
  /** The app's address, for the links. */
  appUrl: string
  logger: Logger
}

type Claimed = { id: string; userId: string; medium: NotificationDeliveryMedium; attempts: number }

export async function deliverDueNotifications(
  deps: DeliverDeps,
  { limit = 50, now = new Date() }: { limit?: number; now?: Date } = {},
): Promise<{ sent: number; failed: number }> {
  const claimed = await claimDue(deps.db, limit, now)
  if (claimed.length === 0) return { sent: 0, failed: 0 }
  const details = await detailsOf(
    deps.db,
    claimed.map((c) => c.id),
  )
  // One member and medium at a time, each on its own: a refused address or a dead browser holds up nothing else.
  // Telegram's go per organization too: each comes from that organization's bot.
  const groups = new Map<string, Claimed[]>()
  for (const delivery of claimed) {
    const organization = delivery.medium === 'telegram' ? details.get(delivery.id)?.organizationId : ''
    const key = `${delivery.userId} ${delivery.medium} ${organization}`
    groups.set(key, [...(groups.get(key) ?? []), delivery])
  }
  let sent = 0
  let failed = 0
  for (const deliveries of groups.values()) {
    const items = deliveries.map((d) => details.get(d.id)).filter((d) => d !== undefined)
    const { medium, userId } = deliveries[0]
    try {
      if (medium === 'push') {
        if (!deps.push) throw new Error('Push is not set up in this process')
        await pushToMember(deps.db, deps.push, userId, items)
      } else if (medium === 'telegram') {
        if (!deps.telegram || !items[0]) throw new Error('Telegram is not set up in this process')
        const member = { userId, organizationId: items[0].organizationId }
        await telegramToMember(deps.db, deps.telegram, member, telegramAlertText(items, deps.appUrl))
      } else {
        await sendEmail(deps, items, deliveries[0].id)
      }
      await markSent(deps.db, deliveries)
      sent += deliveries.length
    } catch (error) {
      failed += deliveries.length
      await markFailed(deps.db, deliveries, error, now)
      deps.logger.warn(`notification ${medium} not sent`, {
        deliveries: deliveries.length,
        reason: error instanceof Error ? error.message : String(error),
      })
    }
  }
  return { sent, failed }
}

/** One email to the member: the notification, or a digest of several. */
async function sendEmail(
  deps: DeliverDeps,
  items: Array<EmailedNotification & { email: string | null }>,
  id: string,
) {
  const to = items[0]?.email
  if (!deps.mailer) throw new Error('Email is not set up on this server (SMTP_URL)')
  if (!to) throw new Error('The member has no email address')
  await deps.mailer.send(composeEmail(to, items, deps.appUrl, `<${id}@replypilot.notifications>`))
}

/**
 * The due deliveries, marked `sending` in the statement that takes them (committed before any send). A member
 * with one due takes all of theirs that are due: they go in one email.
 */
async function claimDue(db: Database, limit: number, now: Date): Promise<Claimed[]> {
  const due = db
    .select({ id: notificationDeliveries.id })
    .from(notificationDeliveries)
    .where(and(eq(notificationDeliveries.status, 'pending'), lte(notificationDeliveries.dueAt, now)))
    .orderBy(asc(notificationDeliveries.dueAt))
    .limit(limit)
    .for('update', { skipLocked: true })
  return db
    .update(notificationDeliveries)
    .set({ status: 'sending', attempts: sql`${notificationDeliveries.attempts} + 1` })
    .where(inArray(notificationDeliveries.id, due))
    .returning({
      id: notificationDeliveries.id,
      userId: notificationDeliveries.userId,
      medium: notificationDeliveries.medium,
      attempts: notificationDeliveries.attempts,
    })
}

/** What each email says, read now: a folded notification shows its latest event. */
async function detailsOf(db: Database, ids: string[]) {
  const rows = await db
    .select({
      id: notificationDeliveries.id,
      email: users.email,
      organizationId: notifications.organizationId,
      event: notifications.event,
      reason: notifications.reason,
      eventCount: notifications.eventCount,
      conversationId: notifications.conversationId,
      channelId: notifications.channelId,
      customerName: conversations.customerName,
      channelType: channels.channelType,
      channelMetadata: channels.metadata,
      organizationName: organizations.name,
      lastMessage: lastCustomerMessage(db),
    })
    .from(notificationDeliveries)
    .innerJoin(notifications, eq(notifications.id, notificationDeliveries.notificationId))
    .innerJoin(users, eq(users.id, notificationDeliveries.userId))
    .innerJoin(organizations, eq(organizations.id, notifications.organizationId))
    .leftJoin(conversations, eq(conversations.id, notifications.conversationId))
    .leftJoin(channels, eq(channels.id, notifications.channelId))
    .where(inArray(notificationDeliveries.id, ids))
  return new Map<string, EmailedNotification & { email: string | null; organizationId: string }>(
    rows.map(({ channelType, channelMetadata, ...row }) => [
      row.id,
      { ...row, channelName: channelNameOf(channelType, channelMetadata) },
    ]),
  )
}

async function markSent(db: Database, deliveries: Claimed[]) {
  await db
    .update(notificationDeliveries)
    .set({ status: 'sent', sentAt: sql`now()`, lastError: null })
    .where(
      inArray(
        notificationDeliveries.id,
        deliveries.map((d) => d.id),
      ),
    )
}

/** Refused: tried again after a growing wait, given up after the last attempt. */
async function markFailed(db: Database, deliveries: Claimed[], error: unknown, now: Date) {
  const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500)
  for (const delivery of deliveries) {
    const last = delivery.attempts >= NOTIFICATION_RETRY.maxAttempts
    await db
      .update(notificationDeliveries)
      .set({
        status: last ? 'failed' : 'pending',
        lastError: reason,
        dueAt: retryAt(now, delivery.attempts),
      })
      .where(eq(notificationDeliveries.id, delivery.id))
  }
}
