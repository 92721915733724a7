import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { rowsOf } from '~/db/rows.server'
import { channels, organizations, telegramAlertLinks, type Channel } from '~/db/schema'
import type { TelegramClient } from '~/integrations/telegram/bot-api.server'
import type { TelegramUpdateBody } from '~/integrations/telegram/update.server'
import {
  TELEGRAM_ALERT_TEXTS,
  TELEGRAM_LINK_CODE,
  TELEGRAM_LINK_MINUTES,
  notificationHref,
} from '~/lib/notifications/notifications'
import { channelToken } from '~/services/channels/channels.server'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { randomSecret, sha256 } from '~/utils/crypto.server'
import { AppError } from '~/utils/errors'
import { channelNameOf } from './bell.server'
import { notificationLines, notificationTitle, type EmailedNotification } from './email.server'

// Telegram alerts (issue 35, docs/decisions/069): a member opens a bot of the organization with a one-time code,
// and the notifications they chose for Telegram come to that private chat, which is never a customer's.

/** The Bot API and the key to the bots' tokens, for the worker's sends. */
export type TelegramAlertDeps = { client: Pick<TelegramClient, 'sendMessage'>; encryptionKey: string }

export type TelegramAlertsState = {
  /** The organization's Telegram bots a member can link. */
  bots: Array<{ id: string; name: string }>
  link: {
    channelId: string
    botName: string
    /** How Telegram names the member; null until they pressed Start. */
    telegramName: string | null
    linked: boolean
    /** While a code waits to be used: until when it works. */
    codeExpiresAt: string | null
  } | null
}

/** How Telegram's search finds the bot: its @username (its display name when it has none). */
const botName = (channel: Pick<Channel, 'channelType' | 'metadata'>) =>
  channel.metadata.username
    ? `@${channel.metadata.username}`
    : (channelNameOf(channel.channelType, channel.metadata) ?? 'your bot')

/** What the settings show: the bots, and the member's link in this organization. */
export async function getTelegramAlerts(scope: OrganizationScope): Promise<TelegramAlertsState> {
  const [bots, [link]] = await Promise.all([
    scope.db
      .select({ id: channels.id, channelType: channels.channelType, metadata: channels.metadata })
      .from(channels)
      .where(and(eq(channels.organizationId, scope.organizationId), eq(channels.platformName, 'telegram')))
      .orderBy(asc(channels.createdAt)),
    scope.db
      .select()
      .from(telegramAlertLinks)
      .where(
        and(
          eq(telegramAlertLinks.organizationId, scope.organizationId),
          eq(telegramAlertLinks.userId, scope.userId),
        ),
      ),
  ])
  const named = bots.map((bot) => ({ id: bot.id, name: botName(bot) }))
  return {
    bots: named,
    link: link
      ? {
          channelId: link.channelId,
          botName: named.find((bot) => bot.id === link.channelId)?.name ?? 'your bot',
          telegramName: link.telegramName,
          linked: link.chatId !== null,
          codeExpiresAt: link.codeExpiresAt?.toISOString() ?? null,
        }
      : null,
  }
}

/**
 * A new one-time code for the member to open `channelId`'s bot with; any earlier link of theirs in this
 * organization is replaced (its chat gets nothing more). Only its hash is kept.
 */
export async function createTelegramLinkCode(
  scope: OrganizationScope,
  channelId: string,
  now = new Date(),
): Promise<{ code: string; url: string | null; botName: string; expiresAt: string }> {
  const [bot] = await scope.db
    .select({ id: channels.id, channelType: channels.channelType, metadata: channels.metadata })
    .from(channels)
    .where(
      and(
        eq(channels.id, channelId),
        eq(channels.organizationId, scope.organizationId),
        eq(channels.platformName, 'telegram'),
      ),
    )
  if (!bot) throw new AppError('NOT_FOUND', TELEGRAM_ALERT_TEXTS.botNotFound)
  const code = `rp${randomSecret(18)}`
  const expiresAt = new Date(now.getTime() + TELEGRAM_LINK_MINUTES * 60_000)
  const fresh = {
    channelId,
    codeHash: sha256(code),
    codeExpiresAt: expiresAt,
    chatId: null,
    telegramName: null,
    linkedAt: null,
    welcomedAt: null,
  }
  await scope.db
    .insert(telegramAlertLinks)
    .values({ organizationId: scope.organizationId, userId: scope.userId, ...fresh })
    .onConflictDoUpdate({
      target: [telegramAlertLinks.organizationId, telegramAlertLinks.userId],
      set: fresh,
    })
  const username = bot.metadata.username
  return {
    code,
    url: username ? `https://t.me/${encodeURIComponent(username)}?start=${code}` : null,
    botName: botName(bot),
    expiresAt: expiresAt.toISOString(),
  }
}

/** The member's Telegram alerts in this organization stop (and their chat with the bot is nobody's). */
export async function unlinkTelegramAlerts(scope: OrganizationScope): Promise<void> {
  await scope.db
    .delete(telegramAlertLinks)
    .where(
      and(
        eq(telegramAlertLinks.organizationId, scope.organizationId),
        eq(telegramAlertLinks.userId, scope.userId),
      ),
    )
}

/** The update's link code, when it is a private `/start <code>` of ours. */
export function telegramLinkCodeOf(update: TelegramUpdateBody): string | undefined {
  const message = update.message
  if (!message || message.chat.type !== 'private' || !message.text) return undefined
  return TELEGRAM_LINK_CODE.exec(message.text)?.[1]
}

/**
 * A member pressed Start with their code: their private chat with this bot becomes theirs for alerts (the
 * trigger adds it to the channel's member chats) and the worker is woken to say hello there. False: no code of
 * ours for this bot (a customer's own deep link). An expired code links nothing, and is not a customer message.
 */
export async function linkTelegramChat(
  db: Database,
  channel: Pick<Channel, 'id'>,
  code: string,
  update: TelegramUpdateBody,
): Promise<boolean> {
  const message = update.message
  if (!message) return false
  const from = message.from
  const fullName = [from?.first_name, from?.last_name].filter(Boolean).join(' ')
  const handle = from?.username ? `@${from.username}` : ''
  const name = fullName && handle ? `${fullName} (${handle})` : fullName || handle
  const result = await db.execute(sql`
    with link as (
      update ${telegramAlertLinks}
      set chat_id = case when code_expires_at > now() then ${String(message.chat.id)} end,
          telegram_name = case when code_expires_at > now() then ${name || null} end,
          linked_at = case when code_expires_at > now() then now() end,
          code_hash = case when code_expires_at > now() then null else code_hash end
      where code_hash = ${sha256(code)} and channel_id = ${channel.id}
      returning chat_id is not null as linked
    )
    select linked, pg_notify('notification_events', '') from link`)
  return rowsOf(result).length > 0
}

/** Says hello in the chats linked since the last look; each is claimed before the send, and said once. */
export async function welcomeTelegramLinks(db: Database, telegram: TelegramAlertDeps): Promise<number> {
  const claimed = await db
    .update(telegramAlertLinks)
    .set({ welcomedAt: sql`now()` })
    .where(and(isNotNull(telegramAlertLinks.chatId), isNull(telegramAlertLinks.welcomedAt)))
    .returning({ chatId: telegramAlertLinks.chatId, channelId: telegramAlertLinks.channelId })
  if (claimed.length === 0) return 0
  // Each bot with its organization's name (a link's organization is its bot's).
  const bots = await db
    .select({ channel: channels, organization: organizations.name })
    .from(channels)
    .innerJoin(organizations, eq(organizations.id, channels.organizationId))
    .where(
      inArray(
        channels.id,
        claimed.map((c) => c.channelId),
      ),
    )
  await Promise.allSettled(
    claimed.map(async (link) => {
      const bot = bots.find((b) => b.channel.id === link.channelId)
      if (!bot || !link.chatId) return
      await telegram.client.sendMessage(channelToken(bot.channel, telegram.encryptionKey), {
        chatId: link.chatId,
        text: TELEGRAM_ALERT_TEXTS.welcome(bot.organization),
      })
    }),
  )
  return claimed.length
}

/** Telegram's limit on a message's text. */
const TELEGRAM_TEXT_LIMIT = 4096

/** What an alert says: the email's words, plain text, with the link. */
export function telegramAlertText(items: EmailedNotification[], appUrl: string): string {
  const blocks = items.map((item) =>
    [notificationTitle(item), ...notificationLines(item), `${appUrl}${notificationHref(item)}`].join('\n'),
  )
  const text =
    items.length === 1
      ? blocks[0]
      : [`${items.length} conversations and channels need you`, ...blocks].join('\n\n')
  return text.length > TELEGRAM_TEXT_LIMIT ? `${text.slice(0, TELEGRAM_TEXT_LIMIT - 1)}…` : text
}

/** Sends the member's due alerts of one organization to their linked chat, from the bot they linked. */
export async function telegramToMember(
  db: Database,
  telegram: TelegramAlertDeps,
  { organizationId, userId }: { organizationId: string; userId: string },
  text: string,
): Promise<void> {
  const [row] = await db
    .select({ chatId: telegramAlertLinks.chatId, channel: channels })
    .from(telegramAlertLinks)
    .innerJoin(channels, eq(channels.id, telegramAlertLinks.channelId))
    .where(and(eq(telegramAlertLinks.organizationId, organizationId), eq(telegramAlertLinks.userId, userId)))
  if (!row?.chatId) throw new Error('The member unlinked Telegram')
  await telegram.client.sendMessage(channelToken(row.channel, telegram.encryptionKey), {
    chatId: row.chatId,
    text,
  })
}
