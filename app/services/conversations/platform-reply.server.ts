import type { Database } from '~/db/client.server'
import { messages, type Channel } from '~/db/schema'
import type { PlatformReply } from '~/integrations/inbound-message'
import { upsertConversation, type PersonReplies } from '~/services/messages/port.server'
import { pauseForPersonReply, type ResumeScheduler } from './takeover.server'

// A person's reply written on the platform itself (the Page inbox, Meta Business Suite, the WhatsApp Business
// app), as its echo tells it: it belongs in the conversation as our outbound message, and it pauses the AI as a
// reply from the composer does (docs/decisions/036).

/** What storing a reply did: stored now (and the AI paused, until the time given if any), or already stored. */
export type PlatformReplyResult =
  | { stored: true; conversationId: string; aiPausedUntil: Date | null }
  | { stored: false }

/**
 * Stores a reply a person wrote on the platform as a sent outbound message (no author of ours, no agent run, not
 * an answer to a message) and pauses the AI of its conversation until the channel's hand-back, in one
 * transaction. One already stored (Meta delivered its echo again) changes nothing, so the pause is not moved.
 */
export async function recordPlatformReply(
  db: Database,
  channel: Pick<Channel, 'id' | 'organizationId' | 'platformChannelId' | 'autoResumeMinutes'>,
  reply: PlatformReply,
): Promise<PlatformReplyResult> {
  return db.transaction(async (tx) => {
    const conversation = await upsertConversation(tx, {
      organizationId: channel.organizationId,
      channelId: channel.id,
      platformChatId: reply.platformChatId,
    })
    const [inserted] = await tx
      .insert(messages)
      .values({
        organizationId: channel.organizationId,
        channelId: channel.id,
        conversationId: conversation.id,
        direction: 'outbound',
        platformMessageId: reply.platformMessageId,
        senderId: channel.platformChannelId,
        senderName: reply.senderName,
        text: reply.text,
        status: 'sent',
        sentParts: 1,
        platformSentAt: reply.platformSentAt,
        receivedAt: new Date(),
      })
      .onConflictDoNothing({ target: [messages.channelId, messages.direction, messages.platformMessageId] })
      .returning({ id: messages.id })
    if (!inserted) return { stored: false }
    const aiPausedUntil = await pauseForPersonReply(tx, conversation.id, {
      userId: null,
      autoResumeMinutes: channel.autoResumeMinutes,
    })
    return { stored: true, conversationId: conversation.id, aiPausedUntil }
  })
}

/**
 * The inbound stage's port for a person's reply on the platform: recorded (recordPlatformReply), and its
 * conversation's hand-back job sent. Without a scheduler, the sweep that runs every minute hands back
 * (jobs/conversation-resume).
 */
export const platformReplies =
  (db: Database, scheduleResume?: ResumeScheduler): PersonReplies =>
  async (channel, reply) => {
    const recorded = await recordPlatformReply(db, channel, reply)
    if (recorded.stored && recorded.aiPausedUntil)
      await scheduleResume?.(recorded.conversationId, recorded.aiPausedUntil)
    return recorded.stored
  }
