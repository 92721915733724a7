import { z } from 'zod'
import type { NotificationHandlers, NotificationListener } from '~/db/listen.server'
import { INBOX_LIVE } from '~/lib/conversations/conversations'
import type { Logger } from '~/utils/logger.server'

/**
 * The inbox's live updates in one process (docs/decisions/037). The database announces every change of a
 * conversation or of its messages' states on `inbox_events` (triggers of migration 0008), whichever process made
 * it (a web process, a worker, the hand-back job); each process that shows the inbox listens once, and tells its
 * subscribers, by organization, which conversations changed.
 */
export const INBOX_EVENTS_CHANNEL = 'inbox_events'

/**
 * `conversation`: that conversation changed. `resync`: the listener was disconnected, changes may have been
 * missed: read everything again. `closed`: the process is stopping; the subscription is over.
 */
export type InboxEvent =
  | { type: 'conversation'; conversationId: string }
  /** A member of the organization has a new or updated notification (the bell, docs/decisions/068). */
  | { type: 'notification'; userId: string }
  | { type: 'resync' }
  | { type: 'closed' }
export type InboxEventListener = (event: InboxEvent) => void

export type InboxEvents = {
  /**
   * Tells `listener` of the organization's changes from now on: resolves once this process listens to the
   * database (the first subscriber starts it). The function it resolves to ends the subscription.
   */
  subscribe(organizationId: string, listener: InboxEventListener): Promise<() => void>
  /** Stops listening; every subscriber is told `closed`. */
  close(): Promise<void>
}

/** Starts listening on the inbox's channel: `listenForNotifications` with the database and its options bound. */
export type InboxListen = (handlers: NotificationHandlers) => Promise<NotificationListener>

const payloadSchema = z.union([
  z.object({ organizationId: z.string(), conversationId: z.string() }),
  z.object({ organizationId: z.string(), notifiedUserId: z.string() }),
])

export function createInboxEvents({
  listen,
  logger,
  coalesceMs = INBOX_LIVE.coalesceMs,
}: {
  listen: InboxListen
  logger: Logger
  /** How long notifications are gathered: a conversation named several times in it is told once. */
  coalesceMs?: number
}): InboxEvents {
  const subscribers = new Map<string, Set<InboxEventListener>>()
  /** Conversations changed since the last flush, by organization (only organizations someone watches). */
  let pending = new Map<string, Set<string>>()
  let flushTimer: NodeJS.Timeout | undefined
  let listening: Promise<NotificationListener> | undefined
  let closed = false

  const tell = (listener: InboxEventListener, event: InboxEvent) => {
    try {
      listener(event)
    } catch (error) {
      logger.warn('inbox event subscriber failed', { error, event: event.type })
    }
  }

  const flush = () => {
    flushTimer = undefined
    const due = pending
    pending = new Map()
    for (const [organizationId, conversationIds] of due) {
      for (const listener of subscribers.get(organizationId) ?? []) {
        for (const conversationId of conversationIds) tell(listener, { type: 'conversation', conversationId })
      }
    }
  }

  const handlers: NotificationHandlers = {
    notification(payload) {
      let parsed
      try {
        parsed = payloadSchema.safeParse(JSON.parse(payload))
      } catch {
        parsed = undefined
      }
      if (!parsed?.success)
        return logger.warn('inbox event not understood', { payload: payload.slice(0, 200) })
      const { organizationId } = parsed.data
      if (!subscribers.has(organizationId)) return
      if ('notifiedUserId' in parsed.data) {
        const event = { type: 'notification', userId: parsed.data.notifiedUserId } as const
        for (const listener of subscribers.get(organizationId) ?? []) tell(listener, event)
        return
      }
      const { conversationId } = parsed.data
      let changed = pending.get(organizationId)
      if (!changed) pending.set(organizationId, (changed = new Set()))
      changed.add(conversationId)
      // From the first notification of a burst, not the last: a steady stream still flushes every `coalesceMs`.
      flushTimer ??= setTimeout(flush, coalesceMs)
    },
    reconnected() {
      for (const listeners of subscribers.values()) {
        for (const listener of listeners) tell(listener, { type: 'resync' })
      }
    },
  }

  const start = () => {
    listening ??= listen(handlers).catch((error: unknown) => {
      listening = undefined
      throw error
    })
    return listening
  }

  return {
    async subscribe(organizationId, listener) {
      if (closed) {
        tell(listener, { type: 'closed' })
        return () => undefined
      }
      let listeners = subscribers.get(organizationId)
      if (!listeners) subscribers.set(organizationId, (listeners = new Set()))
      listeners.add(listener)
      const unsubscribe = () => {
        const current = subscribers.get(organizationId)
        current?.delete(listener)
        if (current?.size === 0) subscribers.delete(organizationId)
      }
      try {
        await start()
      } catch (error) {
        unsubscribe()
        throw error
      }
      return unsubscribe
    },
    async close() {
      if (closed) return
      closed = true
      clearTimeout(flushTimer)
      pending = new Map()
      const everyone = [...subscribers.values()].flatMap((listeners) => [...listeners])
      subscribers.clear()
      for (const listener of everyone) tell(listener, { type: 'closed' })
      const listener = await listening?.catch(() => undefined)
      await listener?.close()
    },
  }
}
