import { and, eq, lt, or, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { channels, telegramPollers, type Channel } from '~/db/schema'
import { isForeignKeyViolation } from '~/db/errors.server'
import { isAppError } from '~/utils/errors'
import type { ReplyQueue } from '~/services/messages/ingest/reply-queue.server'
import { receiveTelegramUpdate } from './telegram.server'

/**
 * The Telegram channels that long polling serves (when there is no public URL for webhooks): active, with their
 * "Webhook Subscription" on, which in polling mode means "receive messages".
 */
export async function listPolledTelegramChannels(db: Database): Promise<Channel[]> {
  return db
    .select()
    .from(channels)
    .where(
      and(
        eq(channels.platformName, 'telegram'),
        eq(channels.status, 'active'),
        eq(channels.webhookSubscribed, true),
      ),
    )
}

/**
 * Claims, or renews, the right to poll a channel's bot for `leaseSeconds`: granted when nobody holds it, when this
 * worker already does, or when the holder's lease lapsed (it died). One statement, so two workers cannot both win;
 * times are the database's, so workers' clocks do not matter. A channel that no longer exists cannot be claimed.
 * Claimed: the channel's member chats now (docs/decisions/069); null: not claimed.
 */
export async function claimTelegramPolling(
  db: Database,
  { channelId, workerId, leaseSeconds }: { channelId: string; workerId: string; leaseSeconds: number },
): Promise<string[] | null> {
  const expires = sql`now() + make_interval(secs => ${leaseSeconds})`
  try {
    const claimed = await db
      .insert(telegramPollers)
      .values({ channelId, workerId, leaseExpiresAt: expires })
      .onConflictDoUpdate({
        target: telegramPollers.channelId,
        set: { workerId, leaseExpiresAt: expires },
        setWhere: or(eq(telegramPollers.workerId, workerId), lt(telegramPollers.leaseExpiresAt, sql`now()`)),
      })
      .returning({
        // Read with the lease, so a poller that holds its channel for hours still knows who linked the bot since.
        memberChatIds: sql<
          string[]
        >`(select ${channels.memberChatIds} from ${channels} where ${channels.id} = ${telegramPollers.channelId})`,
      })
    return claimed[0]?.memberChatIds ?? null
  } catch (error) {
    if (isForeignKeyViolation(error)) return null
    throw error
  }
}

/** Gives the bot up at once (a worker stopping), so that another worker may take it at its next look. */
export async function releaseTelegramPolling(
  db: Database,
  { channelId, workerId }: { channelId: string; workerId: string },
): Promise<void> {
  await db
    .delete(telegramPollers)
    .where(and(eq(telegramPollers.channelId, channelId), eq(telegramPollers.workerId, workerId)))
}

/**
 * A batch of updates from getUpdates, in order, through the webhook's path (checked, normalized, stored and
 * enqueued in one transaction; a redelivery is dropped by the unique key). Returns the offset that confirms what
 * was handled: after the last update stored, or before the first one that failed (the database), which is then
 * thrown along with that offset so that the caller asks for it again. A malformed update is skipped.
 */
export async function ingestTelegramUpdates({
  db,
  boss,
  channel,
  updates,
}: {
  db: Database
  boss: ReplyQueue
  channel: Channel
  updates: { update_id: number }[]
}): Promise<{ nextOffset: number | undefined; stored: number }> {
  let nextOffset: number | undefined
  let stored = 0
  for (const update of updates) {
    try {
      const result = await receiveTelegramUpdate({ db, boss, channel, body: update })
      if (result.stored) stored += 1
    } catch (error) {
      if (!isAppError(error, 'VALIDATION_ERROR')) throw new UpdateIngestError(error, nextOffset)
    }
    nextOffset = update.update_id + 1
  }
  return { nextOffset, stored }
}

/** An update could not be stored; `nextOffset` confirms those before it. */
export class UpdateIngestError extends Error {
  constructor(
    readonly cause: unknown,
    readonly nextOffset: number | undefined,
  ) {
    super(cause instanceof Error ? cause.message : String(cause))
    this.name = 'UpdateIngestError'
  }
}

/** Telegram refused the bot's token: the channel shows the error (as the reply path does) and is no longer polled. */
export async function markTelegramChannelError(db: Database, channelId: string, reason: string) {
  await db
    .update(channels)
    .set({ status: 'error', statusReason: reason, updatedAt: new Date() })
    .where(eq(channels.id, channelId))
}
