import { and, desc, eq, ne, sql } from 'drizzle-orm'
import { channels, conversations } from '~/db/schema'
import { channelDisplayName } from '~/lib/channels/channels'
import { MAX_OTHER_CONVERSATIONS, type Contact } from '~/lib/conversations/contact'
import { CONVERSATION_TEXTS } from '~/lib/conversations/conversations'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'
import { summaryColumns } from './inbox.server'
import { ownConversation } from './takeover.server'

// The customer beside the chat (issue 33, docs/decisions/062). A conversation is one customer on one channel, so
// the contact is the conversation's customer: its details live on its row, written by ingest and the panel. The
// same person on the organization's other channels of the platform (one Telegram user to two bots, one WhatsApp
// number to two business numbers) has the same platform id there: those are the customer's other conversations.

/** The phone number, where the platform's id for the customer is one (WhatsApp's wa_id is the number). */
const phoneOf = (platformName: string, platformChatId: string) =>
  platformName === 'whatsapp' && /^\d{6,15}$/.test(platformChatId) ? `+${platformChatId}` : null

/** The customer of the organization's conversation; another organization's conversation is not found. */
export async function getContact(scope: OrganizationScope, conversationId: string): Promise<Contact> {
  const [row] = await scope.db
    .select({
      platformName: channels.platformName,
      platformChatId: conversations.platformChatId,
      name: conversations.customerName,
      handle: conversations.customerHandle,
      // What they write in; else what their app is set to (Telegram).
      language: sql<string | null>`coalesce(${conversations.language}, ${conversations.customerLanguage})`,
      notes: conversations.customerNotes,
      firstSeenAt: conversations.createdAt,
      labels: summaryColumns.labels,
    })
    .from(conversations)
    .innerJoin(channels, eq(channels.id, conversations.channelId))
    .where(ownConversation(scope, conversationId))
  if (!row) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
  // Each of the organization's channels of the platform is one probe of (channel, chat)'s unique index.
  const others = await scope.db
    .select({
      id: conversations.id,
      channelId: channels.id,
      channelType: channels.channelType,
      channelMetadata: channels.metadata,
      status: conversations.status,
      lastMessageAt: conversations.lastMessageAt,
    })
    .from(channels)
    .innerJoin(
      conversations,
      and(eq(conversations.channelId, channels.id), eq(conversations.platformChatId, row.platformChatId)),
    )
    .where(
      and(
        eq(channels.organizationId, scope.organizationId),
        eq(channels.platformName, row.platformName),
        ne(conversations.id, conversationId),
      ),
    )
    .orderBy(desc(conversations.lastMessageAt))
    .limit(MAX_OTHER_CONVERSATIONS)
  return {
    conversationId,
    platformName: row.platformName,
    name: row.name,
    handle: row.handle,
    phone: phoneOf(row.platformName, row.platformChatId),
    language: row.language,
    firstSeenAt: row.firstSeenAt.toISOString(),
    notes: row.notes,
    labels: row.labels,
    conversationCount: others.length + 1,
    otherConversations: others.map((other) => ({
      id: other.id,
      channel: {
        id: other.channelId,
        name: channelDisplayName({ channelType: other.channelType, metadata: other.channelMetadata }),
      },
      status: other.status,
      lastMessageAt: other.lastMessageAt.toISOString(),
    })),
  }
}

/** Sets the team's notes on the customer (already checked by contactNotesSchema); '' clears them. */
export async function setContactNotes(
  scope: OrganizationScope,
  conversationId: string,
  notes: string,
): Promise<{ notes: string }> {
  const [row] = await scope.db
    .update(conversations)
    .set({ customerNotes: notes })
    .where(ownConversation(scope, conversationId))
    .returning({ notes: conversations.customerNotes })
  if (!row) throw new AppError('NOT_FOUND', CONVERSATION_TEXTS.notFound)
  return row
}
