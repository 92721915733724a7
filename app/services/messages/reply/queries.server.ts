import { aliasedTable, and, eq, getTableColumns, sql, type SQLWrapper } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { rowsOf } from '~/db/rows.server'
import {
  agentRuns,
  agents,
  channels,
  conversations,
  knowledgePassages,
  messages,
  organizations,
  type Agent,
  type Channel,
  type Conversation,
  type Message,
} from '~/db/schema'
import { REPLY_FAILURES } from '~/lib/conversations/reply-pipeline'
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
  /** The customer's burst this message ends: its queued messages up to this one, oldest first (see burstRows). */
  burst: BurstRow[]
  /** A later message of the customer waits for its answer (it will answer this one's burst too). */
  newerQueued: boolean
  /** The stored answer is the agent's handoff, with the model's reason. */
  replyHandoff: string | null
  /** The agent's knowledge holds a processed passage: without one, no search is run. */
  knowledgeReady: boolean
  /** The organization's "words your customers use", for the knowledge search. */
  customerWords: string[][]
}

export type BurstRow = Pick<Message, 'id' | 'kind' | 'media'>

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
 * The customer's burst that a message ends: the queued messages of the conversation after the last message that
 * is not a queued one (an answer, a person's reply, a message already handled) up to this one, oldest first.
 * Both lookups walk the (conversation, sequence) index from the message, so they read only the burst's rows.
 * Only inbound messages are ever queued, so neither lookup names the direction: with direction = 'inbound', a
 * plan made while the table looked empty took an index partial on it (analytics') and read every inbound message.
 */
function burstRows(conversationId: SQLWrapper, sequence: SQLWrapper) {
  return sql<BurstRow[]>`(
    select coalesce(json_agg(json_build_object('id', b.id, 'kind', b.kind, 'media', b.media) order by b.sequence),
      '[]'::json)
    from messages b
    where b.conversation_id = ${conversationId}
      and b.sequence <= ${sequence}
      and b.sequence > coalesce((
        select p.sequence from messages p
        where p.conversation_id = ${conversationId} and p.sequence < ${sequence}
          and p.status <> 'queued'
        order by p.sequence desc limit 1), 0)
      and b.status = 'queued')`
}

/** Whether a later message of the conversation is queued (the customer wrote again; see burstRows on direction). */
function newerQueued(conversationId: SQLWrapper, sequence: SQLWrapper) {
  return sql<boolean>`exists (
    select 1 from messages n
    where n.conversation_id = ${conversationId} and n.sequence > ${sequence} and n.status = 'queued')`
}

/** The reply's context (see loadReplyContext), unprepared: exported for its plan's test. */
export function replyContextQuery(db: Database) {
  const reply = aliasedTable(messages, 'reply')
  return db
    .select({
      message: messages,
      channel: channels,
      conversation: conversations,
      agent: agents,
      reply,
      prompt: promptRows(messages.conversationId, messages.sequence, sql.placeholder('window')),
      burst: burstRows(messages.conversationId, messages.sequence),
      newerQueued: newerQueued(messages.conversationId, messages.sequence),
      replyHandoff: sql<string | null>`(select ${agentRuns.handoffReason} from ${agentRuns}
        where ${agentRuns.id} = ${reply.agentRunId})`,
      // "Words your customers use" (docs/decisions/073), read here so that the search adds no statement.
      customerWords: sql<string[][]>`(select ${organizations.customerWords} from ${organizations}
        where ${organizations.id} = ${messages.organizationId})`,
      knowledgeReady: sql<boolean>`exists (select 1 from ${knowledgePassages} p
        where p.organization_id = ${messages.organizationId}
          and (${agents.knowledgeMode} = 'all'
            or (${agents.knowledgeMode} = 'selected' and p.source_id = any(${agents.knowledgeSourceIds}))))`,
    })
    .from(messages)
    .innerJoin(channels, eq(channels.id, messages.channelId))
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .leftJoin(agents, eq(agents.id, channels.agentId))
    .leftJoin(reply, and(eq(reply.replyToMessageId, messages.id), eq(reply.direction, 'outbound')))
    .where(eq(messages.id, sql.placeholder('messageId')))
    .limit(1)
}

/**
 * The reply path's statements, prepared once per database: at 100 replies/s, building these queries anew (five
 * joined tables and some eighty columns; inserts and updates of a wide table) cost the worker more CPU than
 * running them.
 */
function buildQueries(db: Database) {
  const context = replyContextQuery(db).prepare('reply_context')

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
        handoffReason: sql.placeholder('handoffReason'),
        context: sql.placeholder('context'),
        // JSON text: node-postgres would send an array parameter as a PostgreSQL array, not as JSON.
        knowledge: sql`${sql.placeholder('knowledge')}::jsonb`,
        language: sql.placeholder('language'),
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
    .where(and(inBurst(sql.placeholder('inboundIds')), eq(messages.status, 'queued')))
    .prepare('reply_record_last_part')
  return { context, insertAnswer, recordLastPart }
}

/** The burst's messages, passed as a JSON array of ids (one parameter whatever its length). */
function inBurst(ids: SQLWrapper) {
  return sql`${messages.id} in (select value::uuid from json_array_elements_text(${ids}::json))`
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
  const [created] = await queriesFor(db).insertAnswer.execute({
    ...run,
    knowledge: run.knowledge ? JSON.stringify(run.knowledge) : null,
    ...answer,
  })
  if (created) return created
  const stored = await findReply(db, answer.replyToMessageId)
  return stored && { ...stored, conversationPaused: false }
}

/**
 * The messages a reply settles: the burst this message ends (ids, oldest first) — the message alone when no burst
 * is known (a job giving up with only its message id).
 */
export type Inbound = { id: string; burst?: string[] }
const idsOf = (inbound: Inbound) => JSON.stringify(inbound.burst?.length ? inbound.burst : [inbound.id])

/**
 * A person took over before the answer went out: the answer is kept (failed, with why) and never sent, and the
 * burst is left to the person.
 */
export async function markAnswerWithheld(db: Database, inbound: Inbound, replyId: string) {
  await db.transaction(async (tx) => {
    await tx
      .update(messages)
      .set({ status: 'failed', failureReason: REPLY_FAILURES.answerWithheld })
      .where(and(eq(messages.id, replyId), eq(messages.status, 'pending')))
    await tx
      .update(messages)
      .set({ status: 'received', failureReason: REPLY_FAILURES.aiPaused })
      .where(and(inBurst(sql`${idsOf(inbound)}`), eq(messages.status, 'queued')))
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
 * The answer sent (with the progress of its last part, when given) and its burst replied, in one statement:
 * no state in between for a crash to leave behind, and one round trip. `platform_sent_at` takes the database's
 * clock: when the send was recorded, the end of the window in which a crash would duplicate it.
 */
export async function recordReplied(
  db: Database,
  inbound: Inbound,
  replyId: string,
  progress?: Pick<Message, 'sentParts' | 'platformMessageId'>,
) {
  if (progress) {
    await queriesFor(db).recordLastPart.execute({ inboundIds: idsOf(inbound), replyId, ...progress })
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
    .where(and(inBurst(sql`${idsOf(inbound)}`), eq(messages.status, 'queued')))
}

/** The conversation needs a person, with why (the inbox shows it, first). */
function attentionOf(db: Database | Transaction, conversationId: string, reason: string) {
  return db
    .update(conversations)
    .set({ attentionReason: reason, attentionAt: sql`statement_timestamp()` })
    .where(eq(conversations.id, conversationId))
}

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]

/**
 * Stored, and left to a person, with the reason no agent answers it; with `attention`, the conversation is
 * marked as needing a person too (with that reason).
 */
export async function markNotAnswered(
  db: Database,
  inbound: Inbound,
  reason: string,
  attention?: { conversationId: string; reason: string },
) {
  await db.transaction(async (tx) => {
    await tx
      .update(messages)
      .set({ status: 'received', failureReason: reason })
      .where(and(inBurst(sql`${idsOf(inbound)}`), eq(messages.status, 'queued')))
    if (attention) await attentionOf(tx, attention.conversationId, attention.reason)
  })
}

/**
 * After the last try: the burst (and the message's pending answer) failed with the reason, and the conversation
 * needs a person. A platform that says the token is invalid also puts the channel in error, so that the
 * Channels screen shows it.
 */
export async function markReplyFailed(
  db: Database,
  inbound: Inbound,
  reason: string,
  channelError?: { channelId: string; reason: string },
) {
  await db.transaction(async (tx) => {
    await tx
      .update(messages)
      .set({ status: 'failed', failureReason: reason })
      .where(and(inBurst(sql`${idsOf(inbound)}`), eq(messages.status, 'queued')))
    await tx
      .update(messages)
      .set({ status: 'failed', failureReason: reason })
      .where(
        and(
          eq(messages.replyToMessageId, inbound.id),
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
          sql`(select ${messages.conversationId} from ${messages} where ${messages.id} = ${inbound.id})`,
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

/** Whether the customer has written again since a message (a later message of theirs waits for its answer). */
export async function hasNewerQueued(db: Database, message: Pick<Message, 'conversationId' | 'sequence'>) {
  const result = await db.execute(
    sql`select ${newerQueued(sql`${message.conversationId}::uuid`, sql`${message.sequence}::bigint`)} as newer`,
  )
  return rowsOf<{ newer: boolean }>(result)[0]?.newer === true
}

/** Whether a person has taken the conversation over (its AI is paused) by now. */
export async function isConversationPaused(db: Database, conversationId: string) {
  const [row] = await db
    .select({ pausedAt: conversations.aiPausedAt })
    .from(conversations)
    .where(eq(conversations.id, conversationId))
  return row?.pausedAt != null
}

/**
 * The agent handed the conversation over: the AI is paused until a person resumes it (no auto-resume: the customer
 * asked for a person) and the conversation needs attention with the reason. Idempotent: a run that comes again
 * after a crash does the same.
 */
export async function handOver(db: Database, conversationId: string, reason: string) {
  await db
    .update(conversations)
    .set({
      aiPausedAt: sql`coalesce(${conversations.aiPausedAt}, statement_timestamp())`,
      aiPausedUntil: null,
      attentionReason: reason,
      attentionAt: sql`statement_timestamp()`,
    })
    .where(eq(conversations.id, conversationId))
}

/**
 * The conversation was told at `at` that it is outside office hours: not again in this closed period. `at` is the
 * clock the closed period was computed with, so the two compare on one clock (the database's may differ).
 */
export async function recordOutOfHoursNotice(db: Database, conversationId: string, reason: string, at: Date) {
  await db
    .update(conversations)
    .set({
      outOfHoursNoticeAt: at,
      attentionReason: reason,
      attentionAt: sql`statement_timestamp()`,
    })
    .where(eq(conversations.id, conversationId))
}

/** Marks the conversation as needing a person, leaving its messages as they are. */
export async function markAttention(db: Database, conversationId: string, reason: string) {
  await attentionOf(db, conversationId, reason)
}
