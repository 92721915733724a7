import { and, eq, isNull, lt, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Database } from '~/db/client.server'
import { channels, conversations, messages } from '~/db/schema'
import { GraphApiError } from '~/integrations/meta/graph-fetch.server'
import type { MessengerClient } from '~/integrations/meta/messenger.server'
import { PlatformError } from '~/integrations/platform-errors'
import { decryptSecret } from '~/utils/crypto.server'
import type { Logger } from '~/utils/logger.server'

// The inbox names a customer by the platform's name for them (docs/decisions/036). Telegram's updates carry it;
// Messenger's do not, so a Messenger conversation asks the User Profile API once, after its first message's
// reply job: off the webhook's path, and never in the way of the answer.

export type CustomerNameDeps = {
  db: Database
  graph: Pick<MessengerClient, 'getMessengerProfile'>
  encryptionKey: string
  logger: Logger
}

export type CustomerNameOutcome =
  /** The name was read and stored on the conversation and the customer's messages. */
  | 'named'
  /** Nothing to ask: not Messenger, not the conversation's first message, or a name already known. */
  | 'not-needed'
  /** Graph did not give a name (no access to the profile, a failure): the conversation keeps the PSID. */
  | 'unavailable'

const earlier = alias(messages, 'earlier')

/** The first message of an unnamed Messenger conversation, with what the profile call needs; else undefined. */
async function unnamedFirstMessage(db: Database, messageId: string) {
  const [row] = await db
    .select({
      conversationId: messages.conversationId,
      psid: conversations.platformChatId,
      tokenEncrypted: channels.accessTokenEncrypted,
    })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .innerJoin(channels, eq(channels.id, messages.channelId))
    .where(
      and(
        eq(messages.id, messageId),
        eq(messages.direction, 'inbound'),
        eq(channels.platformName, 'facebook'),
        isNull(conversations.customerName),
        sql`not exists (${db
          .select({ one: sql`1` })
          .from(earlier)
          .where(
            and(
              eq(earlier.conversationId, messages.conversationId),
              eq(earlier.direction, 'inbound'),
              lt(earlier.sequence, messages.sequence),
            ),
          )})`,
      ),
    )
  return row
}

/** "Ann Lee" from the parts Graph gave; undefined when it gave none. */
const fullName = ({ firstName, lastName }: { firstName?: string; lastName?: string }) =>
  [firstName, lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ') || undefined

/**
 * Reads a Messenger customer's name through the User Profile API when `messageId` is the first message of a
 * conversation that has no name yet, and stores it as the conversation's customer_name and the sender_name of the
 * customer's messages so far. Never throws for Graph: a profile the page may not read (the permission, the
 * person's settings) or a failed call leaves the PSID, logged without the token. Asked once per conversation:
 * only its first message's job asks.
 */
export async function nameMessengerCustomer(
  deps: CustomerNameDeps,
  messageId: string,
): Promise<CustomerNameOutcome> {
  const first = await unnamedFirstMessage(deps.db, messageId)
  if (!first?.tokenEncrypted) return 'not-needed'
  let name: string | undefined
  try {
    const token = decryptSecret(first.tokenEncrypted, deps.encryptionKey)
    name = fullName(await deps.graph.getMessengerProfile(token, first.psid))
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error
    deps.logger.info('Messenger profile not readable: the conversation keeps the PSID', {
      conversationId: first.conversationId,
      code: error.code,
      ...(error instanceof GraphApiError
        ? { graphCode: error.graphCode, graphSubcode: error.graphSubcode }
        : {}),
    })
    return 'unavailable'
  }
  if (!name) return 'unavailable'
  // One statement: the conversation (unless named meanwhile) and the customer's messages that have no name.
  await deps.db.execute(sql`
    with named as (
      update ${conversations} set customer_name = ${name}
      where ${conversations.id} = ${first.conversationId} and ${conversations.customerName} is null
      returning ${conversations.id}
    )
    update ${messages} set sender_name = ${name}
    where ${messages.conversationId} in (select id from named)
      and ${messages.direction} = 'inbound' and ${messages.senderName} is null`)
  return 'named'
}
