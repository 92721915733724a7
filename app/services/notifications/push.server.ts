import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { pushSubscriptions } from '~/db/schema'
import type { PushSender } from '~/integrations/push/web-push.server'
import { PushError } from '~/integrations/push/web-push.server'
import { NOTIFICATION_TEXTS, type PushSubscriptionInput } from '~/lib/notifications/notifications'
import { notificationTitle, type EmailedNotification } from './email.server'
import { notificationHref } from '~/lib/notifications/notifications'

// Web Push (docs/decisions/068): the member's browsers that allowed it, and what is pushed to them.

/**
 * Keeps a browser's subscription for the member. A browser has one endpoint: signing in there as someone else
 * moves it to them (the earlier account stops getting pushes on a device it left).
 */
export async function savePushSubscription(db: Database, userId: string, input: PushSubscriptionInput) {
  await db
    .insert(pushSubscriptions)
    .values({ userId, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId, p256dh: input.keys.p256dh, auth: input.keys.auth },
    })
}

/** Forgets the member's browser (they turned push off there); another member's endpoint is left alone. */
export async function removePushSubscription(db: Database, userId: string, endpoint: string) {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
}

/** How many browsers of the member take push. */
export async function countPushSubscriptions(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
  return row?.count ?? 0
}

/** What a push says: one notification, or how many came (after quiet hours), leading to the bell's page. */
export function pushPayload(items: EmailedNotification[]): string {
  if (items.length === 1) {
    const [item] = items
    const body = [item.reason, item.lastMessage ? `“${item.lastMessage.slice(0, 140)}”` : null]
      .filter(Boolean)
      .join(' · ')
    return JSON.stringify({
      title: notificationTitle(item),
      body,
      url: notificationHref(item),
      tag: item.conversationId,
    })
  }
  return JSON.stringify({
    title: `${items.length} conversations and channels need you`,
    body: items.map((item) => notificationTitle(item)).join(' · '),
    url: '/notifications',
  })
}

/**
 * Pushes to every browser of the member; one that says it unsubscribed (404, 410) is forgotten. Throws when none
 * took it, so that the delivery is tried again (or, when the member has no browser left, given up).
 */
export async function pushToMember(
  db: Database,
  push: PushSender,
  userId: string,
  items: EmailedNotification[],
): Promise<void> {
  const targets = await db
    .select({
      id: pushSubscriptions.id,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
  const payload = pushPayload(items)
  const gone: string[] = []
  let delivered = 0
  let lastError: unknown
  for (const target of targets) {
    try {
      await push.send(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        payload,
        { ttlSeconds: 24 * 60 * 60, topic: 'replypilot' },
      )
      delivered++
    } catch (error) {
      if (error instanceof PushError && error.gone) gone.push(target.id)
      else lastError = error
    }
  }
  if (gone.length > 0) await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, gone))
  if (delivered > 0) return
  if (lastError) throw lastError
  throw new Error(NOTIFICATION_TEXTS.pushNone)
}
