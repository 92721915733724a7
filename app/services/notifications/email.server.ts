import type { Mail } from '~/integrations/email/mailer.server'
import { HEALTH_TEXTS } from '~/lib/channels/health'
import {
  NOTIFICATION_TEXTS,
  notificationHref,
  type NotificationEvent,
} from '~/lib/notifications/notifications'

/** What an email says of one notification: read when it is sent, so a folded event shows its latest. */
export type EmailedNotification = {
  event: NotificationEvent
  reason: string | null
  eventCount: number
  conversationId: string | null
  channelId: string | null
  customerName: string | null
  channelName: string | null
  organizationName: string
  lastMessage: string | null
}

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

/** The channel's problem in words (the trigger stores its code). */
function reasonText(item: EmailedNotification): string | null {
  if (item.event !== 'channel_attention') return item.reason
  if (item.reason === 'permissions_missing') return NOTIFICATION_TEXTS.permissionsMissing
  if (item.reason === 'subscription_missing') return HEALTH_TEXTS.subscriptionMissing
  return HEALTH_TEXTS.tokenInvalid
}

/** The notification's one line: "Ann needs a person", "Shop bot needs attention". */
export function notificationTitle(item: Pick<EmailedNotification, 'event' | 'customerName' | 'channelName'>) {
  if (item.event === 'channel_attention') {
    return NOTIFICATION_TEXTS.title.channel_attention(item.channelName ?? 'A channel')
  }
  return NOTIFICATION_TEXTS.title[item.event](item.customerName ?? 'A customer')
}

/** The lines under the title: where, why, and what the customer last wrote. */
export function notificationLines(item: EmailedNotification): string[] {
  const lines = [
    item.channelName ? `On ${item.channelName} (${item.organizationName})` : item.organizationName,
  ]
  const reason = reasonText(item)
  if (reason) lines.push(`Why: ${reason}`)
  if (item.lastMessage) lines.push(`Last message: “${item.lastMessage.slice(0, 500)}”`)
  if (item.eventCount > 1) lines.push(NOTIFICATION_TEXTS.folded(item.eventCount))
  return lines
}

/** One email for one notification, or a digest of several (quiet hours just ended, or several at once). */
export function composeEmail(
  to: string,
  items: EmailedNotification[],
  appUrl: string,
  messageId: string,
): Mail {
  const settings = `${appUrl}/settings/notifications`
  const subject =
    items.length === 1 ? notificationTitle(items[0]) : `${items.length} conversations and channels need you`
  const blocks = items.map((item) => ({
    title: notificationTitle(item),
    lines: notificationLines(item),
    link: `${appUrl}${notificationHref(item)}`,
    action: item.conversationId ? 'Open the conversation' : 'Open the channel',
  }))
  const text = [
    ...blocks.flatMap((b) => [b.title, ...b.lines, `${b.action}: ${b.link}`, '']),
    `Choose what you are told, and when: ${settings}`,
  ].join('\n')
  const html = [
    ...blocks.map(
      (b) =>
        `<h2 style="font-size:16px;margin:16px 0 4px">${escapeHtml(b.title)}</h2>` +
        b.lines.map((line) => `<p style="margin:2px 0">${escapeHtml(line)}</p>`).join('') +
        `<p style="margin:8px 0"><a href="${escapeHtml(b.link)}">${escapeHtml(b.action)}</a></p>`,
    ),
    `<p style="color:#666;font-size:12px;margin-top:24px"><a href="${escapeHtml(settings)}">Choose what you are told, and when</a></p>`,
  ].join('')
  return { to, subject, text, html, messageId }
}
