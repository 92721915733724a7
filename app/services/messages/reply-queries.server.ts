import { aliasedTable, and, eq, getTableColumns, sql, type SQLWrapper } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import {
  agentRuns,
  agents,
  channels,
  conversations,
  messages,
  type Agent,
  type Channel,
  type Conversation,
  type Message,
} from '~/db/schema'
import { REPLY_FAILURES } from '~/lib/reply-pipeline'
import type { SuccessfulRun } from '~/services/agents/run-agent.server'

/** What the reply to one inbound message starts from, read in one round trip (loadReplyContext). */
export type ReplyContext = {
  message: Message
  channel: Channel
  conversation: Conversation
  agent: Agent | null
  /** The answer already stored by an earlier run, if any. */
  reply: Message | null
  /** The conversation up to the message, newest first (see promptRows). */
  prompt: PromptRow[]
}

export type PromptRow = Pick<Message, 'direction' | 'text'>

/**
 * The conversation up to a message (its conversation and sequence), newest first, as the model reads it: at most
 * `window` messages as a JSON array, each answer counted at the place of the message it answers (answers of fast
 * messages are sent after later ones arrive), messages that were never text and answers not delivered left out.
 * A correlated subquery, so that the reply's context and its prompt come in one round trip.
 */
function promptRows(conversationId: SQLWrapper, sequence: SQLWrapper, window: SQLWrapper) {
  return sql<PromptRow[]>`(
    select coalesce(
      json_agg(json_build_object('direction', t.direction, 'text', t.text)
        order by t.position desc, t.direction desc, t.sequence desc),
      '[]'::json)
    from (
      select m.direction, m.text, m.sequence, coalesce(answered.sequence, m.sequence) as position
      from messages m
      left join messages answered on answered.id = m.reply_to_message_id
      where m.conversation_id = ${conversationId}
        and coalesce(answered.sequence, m.sequence) <= ${sequence}
        and ((m.direction = 'inbound' and m.status <> 'ignored')
          or (m.direction = 'outbound' and m.status in ('sent', 'delivered', 'read')))
      order by position desc, m.direction desc, m.sequence desc
      limit ${window}
    ) t)`
}

/**
 * The reply path's statements, prepared once per database: at 100 replies/s, building these queries anew (five
 * joined tables and some eighty columns; inserts and updates of a wide table) cost the worker more CPU than
 * running them.
 */
function buildQueries(db: Database) {
  const reply = aliasedTable(messages, 'reply')
  const context = db
    .select({
      message: messages,
      channel: channels,
      conversation: conversations,
      agent: agents,
      reply,
      prompt: promptRows(messages.conversationId, messages.sequence, sql.placeholder('window')),
    })
    .from(messages)
    .innerJoin(channels, eq(channels.id, messages.channelId))
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .leftJoin(agents, eq(agents.id, channels.agentId))
    .leftJoin(reply, and(eq(reply.replyToMessageId, messages.id), eq(reply.direction, 'outbound')))
    .where(eq(messages.id, sql.placeholder('messageId')))
    .limit(1)
    .prepare('reply_context')

  // The model's run and the answer it gave, in one statement.
  const run = db.$with('run').as(
    db
      .insert(agentRuns)
      .values({
        executionId: sql.placeholder('executionId'),
        organizationId: sql.placeholder('organizationId'),
        agentId: sql.placeholder('agentId'),
        input: sql.placeholder('input'),
        output: sql.placeholder('output'),
        modelUsed: sql.placeholder('modelUsed'),
        promptTokens: sql.placeholder('promptTokens'),
        completionTokens: sql.placeholder('completionTokens'),
        totalTokens: sql.placeholder('totalTokens'),
        latencyMs: sql.placeholder('latencyMs'),
        testMode: sql.placeholder('testMode'),
        context: sql.placeholder('context'),
      })
      .returning({ id: agentRuns.id }),
  )
  const insertAnswer = db
    .with(run)
    .insert(messages)
    .values({
      organizationId: sql.placeholder('organizationId'),
      channelId: sql.placeholder('channelId'),
      conversationId: sql.placeholder('conversationId'),
      direction: 'outbound',
      senderId: sql.placeholder('senderId'),
      senderName: sql.placeholder('senderName'),
      text: sql.placeholder('text'),
      status: 'pending',
      replyToMessageId: sql.placeholder('replyToMessageId'),
      agentRunId: sql`(select id from ${run})`,
    })
    .onConflictDoNothing({ target: messages.replyToMessageId, where: sql`direction = 'outbound'` })
    // Whether a person took over while the model was answering: then the answer is kept, not sent.
    .returning({
      ...getTableColumns(messages),
      conversationPaused: sql<boolean>`(select ${conversations.aiPausedAt} is not null from ${conversations}
        where ${conversations.id} = ${messages.conversationId})`,
    })
    .prepare('reply_insert_answer')

  // See recordReplied.
  const sent = db.$with('sent').as(
    db
      .update(messages)
      .set({
        status: 'sent',
        platformSentAt: sql`statement_timestamp()`,
        failureReason: null,
        sentParts: sql`${sql.placeholder('sentParts')}`,
        platformMessageId: sql`${sql.placeholder('platformMessageId')}`,
      })
      .where(and(eq(messages.id, sql.placeholder('replyId')), eq(messages.status, 'pending')))
      .returning({ id: messages.id }),
  )
  const recordLastPart = db
    .with(sent)
    .update(messages)
    .set({ status: 'replied', failureReason: null })
    .where(and(eq(messages.id, sql.placeholder('inboundId')), eq(messages.status, 'queued')))
    .prepare('reply_record_last_part')
  return { context, insertAnswer, recordLastPart }
}

const prepared = new WeakMap<Database, ReturnType<typeof buildQueries>>()
function queriesFor(db: Database) {
  let queries = prepared.get(db)
  if (!queries) {
    queries = buildQueries(db)
    prepared.set(db, queries)
  }
  return queries
}

/** The message with everything its reply needs, its stored answer and its prompt included, in one query. */
export async function loadReplyContext(
  db: Database,
  messageId: string,
  window: number,
): Promise<ReplyContext | undefined> {
  const [row] = await queriesFor(db).context.execute({ messageId, window: Math.max(1, window) })
  return row
}

async function findReply(db: Database, inboundId: string): Promise<Message | undefined> {
  const [reply] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.replyToMessageId, inboundId), eq(messages.direction, 'outbound')))
    .limit(1)
  return reply
}

/**
 * The model's run and its answer (pending) in one statement, with whether the conversation was paused by then
 * (a person took over while the model was answering). An answer stored meanwhile by another run of the same
 * message wins: that one is returned.
 */
export async function storeAnswer(
  db: Database,
  run: SuccessfulRun,
  answer: Pick<Message, 'channelId' | 'conversationId' | 'senderId' | 'senderName' | 'text'> & {
    replyToMessageId: string
  },
): Promise<(Message & { conversationPaused: boolean }) | undefined> {
  const [created] = await queriesFor(db).insertAnswer.execute({ ...run, ...answer })
  if (created) return created
  const stored = await findReply(db, answer.replyToMessageId)
  return stored && { ...stored, conversationPaused: false }
}

/**
 * A person took over before the answer went out: the answer is kept (failed, with why) and never sent, and the
 * message is left to the person.
 */
export async function markAnswerWithheld(db: Database, inboundId: string, replyId: string) {
  await db.transaction(async (tx) => {
    await tx
      .update(messages)
      .set({ status: 'failed', failureReason: REPLY_FAILURES.answerWithheld })
      .where(and(eq(messages.id, replyId), eq(messages.status, 'pending')))
    await tx
      .update(messages)
      .set({ status: 'received', failureReason: REPLY_FAILURES.aiPaused })
      .where(and(eq(messages.id, inboundId), eq(messages.status, 'queued')))
  })
}

/** The progress of an answer sent in parts: the parts the platform accepted, and the first part's id. */
export async function recordSentParts(
  db: Database,
  replyId: string,
  progress: Pick<Message, 'sentParts' | 'platformMessageId'>,
) {
  await db.update(messages).set(progress).where(eq(messages.id, replyId))
}

/**
 * The answer sent (with the progress of its last part, when given) and its message replied, in one statement:
 * no state in between for a crash to leave behind, and one round trip. `platform_sent_at` takes the database's
 * clock: when the send was recorded, the end of the window in which a crash would duplicate it.
 */
export async function recordReplied(
  db: Database,
  inboundId: string,
  replyId: string,
  progress?: Pick<Message, 'sentParts' | 'platformMessageId'>,
) {
  if (progress) {
    await queriesFor(db).recordLastPart.execute({ inboundId, replyId, ...progress })
    return
  }
  const sent = db.$with('sent').as(
    db
      .update(messages)
      .set({ status: 'sent', platformSentAt: sql`statement_timestamp()`, failureReason: null })
      .where(and(eq(messages.id, replyId), eq(messages.status, 'pending')))
      .returning({ id: messages.id }),
  )
  // PostgreSQL runs a data-modifying WITH to completion whether or not the main statement reads it.
  await db
    .with(sent)
    .update(messages)
    .set({ status: 'replied', failureReason: null })
    .where(and(eq(messages.id, inboundId), eq(messages.status, 'queued')))
}

/** Stored, and left to a person, with the reason no agent answers it. */
export async function markNotAnswered(db: Database, inboundId: string, reason: string) {
  await db
    .update(messages)
    .set({ status: 'received', failureReason: reason })
    .where(and(eq(messages.id, inboundId), eq(messages.status, 'queued')))
}

/**
 * After the last try: the message (and its pending answer) failed with the reason. A platform that says the token
 * is invalid also puts the channel in error, so that the Channels screen shows it.
 */
export async function markReplyFailed(
  db: Database,
  inboundId: string,
  reason: string,
  channelError?: { channelId: string; reason: string },
) {
  await db.transaction(async (tx) => {
    await tx
      .update(messages)
      .set({ status: 'failed', failureReason: reason })
      .where(and(eq(messages.id, inboundId), eq(messages.status, 'queued')))
    await tx
      .update(messages)
      .set({ status: 'failed', failureReason: reason })
      .where(
        and(
          eq(messages.replyToMessageId, inboundId),
          eq(messages.direction, 'outbound'),
          eq(messages.status, 'pending'),
        ),
      )
    // The inbox shows the conversation as needing a person, with the reason.
    await tx
      .update(conversations)
      .set({ attentionReason: reason, attentionAt: sql`statement_timestamp()` })
      .where(
        eq(
          conversations.id,
          sql`(select ${messages.conversationId} from ${messages} where ${messages.id} = ${inboundId})`,
        ),
      )
    if (channelError) {
      await tx
        .update(channels)
        .set({ status: 'error', statusReason: channelError.reason, updatedAt: new Date() })
        .where(eq(channels.id, channelError.channelId))
    }
  })
}
