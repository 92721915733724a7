import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Database } from '~/db/client.server'
import type { Channel } from '~/db/schema'
import { PlatformError } from '~/integrations/platform-errors'
import type { TelegramClient } from '~/integrations/telegram/bot-api.server'
import type { ReplyQueue } from '~/services/messages/ingest/reply-queue.server'
import {
  claimTelegramPolling,
  ingestTelegramUpdates,
  listPolledTelegramChannels,
  markTelegramChannelError,
  releaseTelegramPolling,
  UpdateIngestError,
} from '~/services/messages/inbound/telegram-polling.server'
import { decryptSecret } from '~/utils/crypto.server'
import type { Logger } from '~/utils/logger.server'

export type TelegramPollingDeps = {
  db: Database
  boss: ReplyQueue
  telegram: Pick<TelegramClient, 'getUpdates' | 'deleteWebhook'>
  encryptionKey: string
  logger: Logger
}

export type TelegramPollingOptions = {
  /** Names this process in the lease table. Default: host, pid and a random part. */
  workerId?: string
  /** Which of the polled channels this process may take. Default: all; tests sharing a database keep to theirs. */
  only?: (channel: Channel) => boolean
  /** How often the set of polled channels is brought in line with the database. */
  reconcileMs?: number
  /** Telegram's long-poll `timeout`. */
  pollTimeoutSeconds?: number
  /** A lease outlives a poll comfortably; a dead worker's bots are taken over after it lapses. */
  leaseSeconds?: number
  /** Backoff after a failed poll: doubling from `baseDelayMs` up to `maxDelayMs`, or Telegram's retry_after. */
  baseDelayMs?: number
  maxDelayMs?: number
}

export const TELEGRAM_POLLING_DEFAULTS = {
  reconcileMs: 3_000,
  pollTimeoutSeconds: 25,
  leaseSeconds: 60,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
} satisfies Omit<TelegramPollingOptions, 'workerId'>

/** Updates we read: only new messages (edits, reactions, member changes... are never answered). */
const ALLOWED_UPDATES = ['message' as const]

export type TelegramPolling = {
  readonly workerId: string
  /** The channels this process polls now. */
  polling(): string[]
  /** Brings the pollers in line with the database at once (also done every `reconcileMs`). */
  reconcile(): Promise<void>
  /** Stops every poller (the long polls are aborted), gives their leases up, and stops looking. */
  stop(): Promise<void>
}

type Poller = { controller: AbortController; done: Promise<void> }

/**
 * Long polling for Telegram channels when there is no public URL for webhooks (ADR 022). Each worker process runs
 * one of these; every few seconds it lists the polled channels (active, subscription on) and starts a poller for
 * each one whose lease it can claim, and stops the pollers of channels that were deleted, switched off or put
 * in error. A poller deletes any webhook (it would make getUpdates fail), then long-polls and hands each batch to
 * the webhook's store-and-enqueue path, confirming an update (the next `offset`) only once it is stored.
 */
export function startTelegramPolling(
  deps: TelegramPollingDeps,
  options: TelegramPollingOptions = {},
): TelegramPolling {
  const settings = { ...TELEGRAM_POLLING_DEFAULTS, ...options }
  const only = options.only ?? (() => true)
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
  const pollers = new Map<string, Poller>()
  const log = deps.logger.child({ component: 'telegram-polling', workerId })
  let stopped = false
  let reconciling: Promise<void> | undefined

  async function pollChannel(channel: Channel, signal: AbortSignal): Promise<void> {
    const channelLog = log.child({ channelId: channel.id })
    const token = decryptSecret(channel.accessTokenEncrypted ?? '', deps.encryptionKey)
    const lease = { channelId: channel.id, workerId, leaseSeconds: settings.leaseSeconds }
    let offset: number | undefined
    let failures = 0
    let webhookCleared = false
    // Renewed with each lease: members' chats linked since the poller started.
    let polled = channel
    channelLog.info('polling Telegram for updates')
    while (!signal.aborted) {
      try {
        const memberChatIds = await claimTelegramPolling(deps.db, lease)
        if (!memberChatIds) {
          channelLog.info('polling lease lost: the channel is gone or another worker polls its bot')
          return
        }
        polled = { ...polled, memberChatIds }
        if (!webhookCleared) {
          await deps.telegram.deleteWebhook(token)
          webhookCleared = true
        }
        const updates = await deps.telegram.getUpdates(token, {
          offset,
          timeoutSeconds: settings.pollTimeoutSeconds,
          allowedUpdates: ALLOWED_UPDATES,
          signal,
        })
        const { nextOffset, stored } = await ingestTelegramUpdates({ ...deps, channel: polled, updates })
        offset = nextOffset ?? offset
        if (updates.length > 0) channelLog.debug('updates received', { count: updates.length, stored })
        failures = 0
      } catch (error) {
        if (signal.aborted) break
        if (error instanceof UpdateIngestError) offset = error.nextOffset ?? offset
        if (error instanceof PlatformError && error.code === 'AUTH_TOKEN_INVALID') {
          channelLog.warn('Telegram refused the bot token; polling stops', { reason: error.message })
          await markTelegramChannelError(deps.db, channel.id, error.message).catch((cause: unknown) =>
            channelLog.error('could not record the channel error', { error: cause }),
          )
          return
        }
        // 409: a webhook was set meanwhile (delete it again), or another getUpdates runs for this bot elsewhere.
        if (error instanceof PlatformError && error.status === 409) webhookCleared = false
        failures += 1
        const backoff = Math.min(settings.baseDelayMs * 2 ** (failures - 1), settings.maxDelayMs)
        const delayMs = error instanceof PlatformError && error.retryAfterMs ? error.retryAfterMs : backoff
        channelLog.warn('polling failed; trying again', { error, failures, delayMs })
        await sleep(delayMs, undefined, { signal }).catch(() => undefined)
      }
    }
  }

  function start(channel: Channel) {
    const controller = new AbortController()
    const done = pollChannel(channel, controller.signal)
      .catch((error: unknown) => log.error('poller stopped by an error', { channelId: channel.id, error }))
      // Listed as polled until its lease is given up: a poller started again meanwhile would have its new lease
      // released by this one's end.
      .finally(async () => {
        await releaseTelegramPolling(deps.db, { channelId: channel.id, workerId }).catch((error: unknown) =>
          log.warn('could not release the polling lease', { channelId: channel.id, error }),
        )
        pollers.delete(channel.id)
      })
    pollers.set(channel.id, { controller, done })
  }

  async function reconcileOnce() {
    const wanted = (await listPolledTelegramChannels(deps.db)).filter(only)
    const wantedIds = new Set(wanted.map((channel) => channel.id))
    for (const [channelId, poller] of pollers) {
      if (!wantedIds.has(channelId)) poller.controller.abort(new Error('The channel is no longer polled'))
    }
    for (const channel of wanted) {
      if (stopped || pollers.has(channel.id)) continue
      const lease = { channelId: channel.id, workerId, leaseSeconds: settings.leaseSeconds }
      if (await claimTelegramPolling(deps.db, lease)) start(channel)
    }
  }

  function reconcile(): Promise<void> {
    if (stopped) return Promise.resolve()
    reconciling ??= reconcileOnce().finally(() => (reconciling = undefined))
    return reconciling
  }

  const timer = setInterval(() => {
    reconcile().catch((error: unknown) => log.error('could not list the channels to poll', { error }))
  }, settings.reconcileMs)
  timer.unref()
  void reconcile().catch((error: unknown) => log.error('could not list the channels to poll', { error }))

  return {
    workerId,
    polling: () => [...pollers.keys()],
    reconcile,
    async stop() {
      stopped = true
      clearInterval(timer)
      await reconciling?.catch(() => undefined)
      const running = [...pollers.values()]
      for (const poller of running) poller.controller.abort(new Error('The worker is stopping'))
      await Promise.all(running.map((poller) => poller.done))
    },
  }
}
