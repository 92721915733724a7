import type { NotificationListener } from '~/db/listen.server'
import type { Database } from '~/db/client.server'
import type { Mailer } from '~/integrations/email/mailer.server'
import type { PushSender } from '~/integrations/push/web-push.server'
import { NOTIFICATION_POLL_MS } from '~/lib/notifications/notifications'
import { deliverDueNotifications } from '~/services/notifications/deliver.server'
import { fanOutNotificationEvents } from '~/services/notifications/fan-out.server'
import { sendInvitationEmails } from '~/services/notifications/invitation-email.server'
import { welcomeTelegramLinks, type TelegramAlertDeps } from '~/services/notifications/telegram-alerts.server'
import type { Logger } from '~/utils/logger.server'

export const NOTIFICATION_EVENTS_CHANNEL = 'notification_events'

export type NotificationWorkerDeps = {
  db: Database
  mailer?: Mailer
  push?: PushSender
  telegram?: TelegramAlertDeps
  appUrl: string
  logger: Logger
  /** Listens on NOTIFICATION_EVENTS_CHANNEL (the triggers' wake-up). */
  listen: (handlers: { notification(): void; reconnected(): void }) => Promise<NotificationListener>
  pollMs?: number
}

export type NotificationWorker = {
  stop(): Promise<void>
  /** One round now (tests). */ runOnce(): Promise<void>
}

/**
 * Fans out new events and sends what is due, invitations' emails too (docs/decisions/068): woken by the triggers' notification, and every
 * NOTIFICATION_POLL_MS besides (a wake-up lost while reconnecting, a retry or a quiet-hours digest coming due).
 * One round at a time in this process; several workers share the work through row locks.
 */
export async function startNotificationWorker(deps: NotificationWorkerDeps): Promise<NotificationWorker> {
  let running: Promise<void> | undefined
  let again = false
  let stopped = false

  const round = async () => {
    while (await fanOutNotificationEvents(deps.db, { email: Boolean(deps.mailer) })) {
      if (stopped) return
    }
    for (;;) {
      const { sent, failed } = await deliverDueNotifications(deps)
      if (sent + failed === 0 || stopped) break
    }
    if (deps.telegram) await welcomeTelegramLinks(deps.db, deps.telegram)
    if (!deps.mailer) return
    while ((await sendInvitationEmails({ ...deps, mailer: deps.mailer })) > 0 && !stopped) {
      // More than one batch may be due.
    }
  }
  const run = (): Promise<void> => {
    if (running) {
      again = true
      return running
    }
    running = round()
      .catch((error: unknown) => deps.logger.warn('notification round failed', { error }))
      .finally(() => {
        running = undefined
        if (again && !stopped) {
          again = false
          void run()
        }
      })
    return running
  }

  const listener = await deps.listen({ notification: () => void run(), reconnected: () => void run() })
  const timer = setInterval(() => void run(), deps.pollMs ?? NOTIFICATION_POLL_MS)
  timer.unref()
  void run()
  return {
    runOnce: run,
    async stop() {
      stopped = true
      clearInterval(timer)
      await listener.close()
      await running
      deps.mailer?.close()
    },
  }
}
