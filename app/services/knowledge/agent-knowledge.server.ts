import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { knowledgePassages } from '~/db/schema'
import type { Agent } from '~/db/schema'
import { NO_ANSWER, type KnowledgeHit, type UsedPassage } from '~/lib/knowledge/knowledge'
import { isSmallTalk, wordsOf } from './query-words'
import type { KnowledgeEmbeddings } from './embeddings.server'
import { searchWithVectors } from './fused-search.server'

// What an agent's answer is grounded in (issue #18, docs/decisions/042 and 070): the passages of its knowledge that
// match the customer's question go into the prompt as context, with an instruction to answer from them and the
// system prompt, and to answer NO_ANSWER to a factual question neither holds. The model is always asked: a
// greeting, thanks, or a question the system prompt answers matches no passage and still gets its answer; only the
// model's NO_ANSWER takes the "don't know" path (a person is asked to help).

export type AgentKnowledgeSettings = Pick<
  Agent,
  | 'organizationId'
  | 'knowledgeMode'
  | 'knowledgeSourceIds'
  | 'knowledgePassages'
  | 'knowledgeMinRelevance'
  | 'knowledgeNoAnswerMessage'
>

export type Grounding =
  /**
   * The agent does not use knowledge, its organization (or selection) has none yet, or the message is small talk
   * that needs none: the model answers as before.
   */
  | { kind: 'none' }
  /** The agent answers from its knowledge: these passages matched (none may have). */
  | { kind: 'passages'; hits: KnowledgeHit[] }

/**
 * The passages an agent answers `question` from (its selection, its limit and minimum relevance); with an embedding
 * model, the keyword and vector rankings fused (docs/decisions/043).
 */
export async function groundQuestion(
  db: Database,
  agent: AgentKnowledgeSettings,
  question: string,
  embeddings?: KnowledgeEmbeddings,
  /**
   * What the caller read already (the reply's context): whether the agent's knowledge holds a passage, and the
   * organization's "words your customers use".
   */
  known?: { ready: boolean; customerWords: string[][] },
): Promise<Grounding> {
  const ready = known?.ready
  if (agent.knowledgeMode === 'none' || ready === false) return { kind: 'none' }
  if (wordsOf(question).length === 0 || isSmallTalk(question)) return { kind: 'none' }
  const hits = await searchWithVectors(
    db,
    {
      organizationId: agent.organizationId,
      query: question,
      limit: agent.knowledgePassages,
      sourceIds: agent.knowledgeMode === 'selected' ? agent.knowledgeSourceIds : undefined,
      minRelevance: agent.knowledgeMinRelevance,
      customerWords: known?.customerWords,
    },
    embeddings,
  )
  if (hits.length > 0) return { kind: 'passages', hits }
  // Knowledge that is not there plays no part: a new organization (or a selection) without one processed passage
  // is answered from the system prompt, as before knowledge existed. Asked only when nothing matched.
  return (ready ?? (await hasPassages(db, agent))) ? { kind: 'passages', hits: [] } : { kind: 'none' }
}

/** Whether the agent's knowledge holds any passage at all (the sources' job has processed one). */
async function hasPassages(db: Database, agent: AgentKnowledgeSettings): Promise<boolean> {
  const selection =
    agent.knowledgeMode === 'selected'
      ? agent.knowledgeSourceIds.length > 0
        ? inArray(knowledgePassages.sourceId, agent.knowledgeSourceIds)
        : sql`false`
      : undefined
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(knowledgePassages)
    .where(and(eq(knowledgePassages.organizationId, agent.organizationId), selection))
    .limit(1)
  return row !== undefined
}

export const KNOWLEDGE_INSTRUCTION =
  'Answer from the knowledge passages below and the instructions above. Greetings, thanks and small talk need ' +
  'no passage: answer them as usual. When the customer asks for a fact that neither the passages nor the ' +
  `instructions above contain, reply with exactly ${NO_ANSWER} and nothing else: the customer is then told that a ` +
  'person from the team will help. Never invent facts such as prices, dates, times or policies.'

/** What the prompt says when the knowledge was searched and no passage matched the message. */
export const NO_PASSAGE_MATCHED = '(No passage of the knowledge matched this message.)'

/**
 * The model found no answer in the passages it was given: it answered NO_ANSWER, alone or beside other words (a
 * model that half follows the instruction; the marker must never reach a customer either way).
 */
export const saysNoAnswer = (output: string) => output.includes(NO_ANSWER)

/**
 * Whether a model call found no answer in its knowledge and instructions: knowledge was in its prompt (`hits`,
 * possibly none matched), it did not hand over, and it said NO_ANSWER. A conversation's answer and a Test Agent
 * run read it alike.
 */
export const foundNoAnswer = (
  call: { output: string; handoff?: unknown },
  hits: readonly unknown[] | undefined,
) => hits !== undefined && !call.handoff && saysNoAnswer(call.output)

/**
 * The system prompt with the knowledge: the instruction and the passages (numbered, each under its source title
 * and headings), or the instruction and a line saying none matched. Undefined `hits`: no knowledge in play.
 */
export function groundedSystemPrompt(systemPrompt: string, hits: KnowledgeHit[] | undefined): string {
  if (hits === undefined) return systemPrompt
  const passages = hits.map((hit, index) => {
    const where = [hit.title, ...hit.headingPath].join(' › ')
    return `[${index + 1}] ${where}\n${hit.text}`
  })
  const body = passages.length > 0 ? passages.join('\n\n') : NO_PASSAGE_MATCHED
  return `${systemPrompt}\n\n## Knowledge\n${KNOWLEDGE_INSTRUCTION}\n\n${body}`
}

/** What a run records of the passages its prompt carried. */
export const usedPassagesOf = (hits: KnowledgeHit[]): UsedPassage[] =>
  hits.map(({ passageId, sourceId, title, headingPath, score }) => ({
    passageId,
    sourceId,
    title,
    headingPath,
    score,
  }))
