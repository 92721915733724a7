// What the domains above the pipeline (conversations, channels) may use of it: a person's reply sent through the
// platforms' senders, its conversation upserted, a message queued again for the agent (docs/decisions/052).

export { upsertConversation } from './ingest/ingest.server'
export { REPLY_QUEUE, replyJobOptions, type ReplyQueue } from './ingest/reply-queue.server'
export type { PersonReplies } from './inbound/meta.server'
export { failureReason } from './reply/retries.server'
export { isReplyPlatform, senderFor, type SenderClients } from './reply/senders.server'
