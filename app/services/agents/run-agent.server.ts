import { randomUUID } from 'node:crypto'
import { and, eq, inArray, isNull } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { agentRuns, type AgentRun } from '~/db/schema'
import {
  ModelError,
  NOT_CONFIGURED_MESSAGE,
  type ChatMessage,
  type ModelClient,
} from '~/integrations/llm/model.server'
import type { RunAgentInput } from '~/lib/agents/schemas'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'
import { recordModelCall } from '~/utils/metrics.server'
import { getAgent, type AgentView } from './agents.server'
import type { KnowledgeHit } from '~/lib/knowledge/knowledge'
import { languageInstruction } from '~/lib/agents/language'
import { builtInTextFor } from '~/lib/agents/built-in-texts'
import { conversationLanguage, detectLanguages } from '~/integrations/language/detect.server'
import type { KnowledgeEmbeddings } from '~/services/knowledge/embeddings.server'
import {
  foundNoAnswer,
  groundQuestion,
  groundedSystemPrompt,
  usedPassagesOf,
} from '~/services/knowledge/agent-knowledge.server'

/** A passage the answer was grounded in, as the Test Agent dialog and the run API show it. */
export type RunPassage = Pick<KnowledgeHit, 'sourceId' | 'title' | 'headingPath' | 'score' | 'text' | 'url'>

/**
 * What knowledge the run used: the passages its prompt carried (none may have matched: the model answered from its
 * instructions), and whether it was a miss (the model found the answer neither there nor in its instructions: the
 * output is the agent's no-answer message). Null when knowledge played no part (the agent uses none, its
 * organization has none yet, or the message was small talk).
 */
export type RunKnowledge = { passages: RunPassage[]; miss: boolean } | null

export type AgentRunResult = {
  output: string
  /** The agent handed the conversation over to a person (its `handoff` tool), with the model's reason. */
  handoff: { reason: string } | null
  executionId: string
  modelUsed: string
  tokensUsed: { prompt: number; completion: number; total: number }
  latencyMs: number
  timestamp: string
  knowledge: RunKnowledge
  /** The language the question was written in (ISO 639-1), when detected (docs/decisions/073). */
  language: string | null
}

type AgentCall = {
  db: Database
  agent: Pick<
    AgentView,
    | 'id'
    | 'organizationId'
    | 'modelType'
    | 'systemPrompt'
    | 'creativityLevel'
    | 'topP'
    | 'topK'
    | 'maxTokens'
    | 'handoffEnabled'
    | 'replyLanguage'
  >
  messages: ChatMessage[]
  /**
   * Knowledge passages the answer is grounded in: they go into the system prompt and the run records them. An
   * empty list still puts the knowledge's instruction in the prompt; undefined: knowledge plays no part.
   */
  knowledge?: KnowledgeHit[]
  /** The customer's language (ISO 639-1), when known: the answer is asked in it, unless the agent has its own. */
  language?: string | null
  testMode: boolean
  context?: Record<string, unknown>
  models: Pick<ModelClient, 'generate'>
  signal?: AbortSignal
}

/**
 * Calls an agent's model with its parameters. The one place where an agent's settings become model parameters:
 * creativity → temperature, top P, top K, max tokens → output tokens. A failed call is recorded with its reason
 * and rethrown as the ModelError it was; a successful one is returned for the caller to store (runAgent stores
 * it alone, the reply pipeline with the answer, in one statement).
 */
export async function callAgentModel({
  db,
  agent,
  messages,
  knowledge,
  language,
  testMode,
  context,
  models,
  signal,
}: AgentCall) {
  const base = {
    executionId: `exec_${randomUUID()}`,
    organizationId: agent.organizationId,
    agentId: agent.id,
    input: messages.at(-1)?.content ?? '',
    testMode,
    context: context ?? null,
    // An empty list: the knowledge was searched and nothing matched (the Test Agent history shows it so).
    knowledge: knowledge ? usedPassagesOf(knowledge) : null,
    language: language ?? null,
  }
  const started = performance.now()
  try {
    const result = await models.generate({
      tier: agent.modelType,
      system: systemPromptOf(
        agent.systemPrompt,
        knowledge,
        languageInstruction(agent.replyLanguage, language),
      ),
      messages,
      temperature: agent.creativityLevel,
      topP: agent.topP ?? undefined,
      topK: agent.topK ?? undefined,
      maxOutputTokens: agent.maxTokens ?? undefined,
      handoff: agent.handoffEnabled,
      signal,
    })
    recordModelCall(agent.modelType, { latencyMs: result.latencyMs, usage: result.usage })
    const run = {
      ...base,
      output: result.text,
      modelUsed: result.model,
      promptTokens: result.usage.promptTokens,
      completionTokens: result.usage.completionTokens,
      totalTokens: result.usage.totalTokens,
      latencyMs: Math.round(result.latencyMs),
      handoffReason: result.handoff?.reason ?? null,
    }
    return { run, output: result.text, handoff: result.handoff }
  } catch (error) {
    if (error instanceof ModelError)
      recordModelCall(agent.modelType, { latencyMs: performance.now() - started })
    const reason = error instanceof Error ? error.message : String(error)
    await db.insert(agentRuns).values({ ...base, error: reason })
    throw error
  }
}

/** The agent's instructions, then its knowledge, then the language to answer in. */
function systemPromptOf(
  systemPrompt: string,
  knowledge: KnowledgeHit[] | undefined,
  languageLine: string | null,
) {
  const grounded = groundedSystemPrompt(systemPrompt, knowledge)
  return languageLine ? `${grounded}\n\n${languageLine}` : grounded
}

/** A successful run as it is stored in agent_runs. */
export type SuccessfulRun = Awaited<ReturnType<typeof callAgentModel>>['run']

/**
 * A run whose model found no answer in the passages (it answered NO_ANSWER, see KNOWLEDGE_INSTRUCTION), as it is
 * stored: like a question no passage matched, its output is what the customer gets, the no-answer message; the
 * model, tokens and passages stay.
 */
export const knowledgeMissRun = (
  run: SuccessfulRun,
  agent: Pick<AgentView, 'knowledgeNoAnswerMessage' | 'replyLanguage' | 'translations'>,
  /** The customer's language: the message is stored as they get it (ADR 072). */
  customerLanguage: string | null | undefined,
): SuccessfulRun => ({
  ...run,
  output: builtInTextFor('no-knowledge', agent.knowledgeNoAnswerMessage, agent, customerLanguage),
  context: { ...run.context, knowledgeMiss: true },
})

/** Stores a successful run (callAgentModel stores the failed ones itself). */
export async function recordRun(db: Database, run: SuccessfulRun): Promise<AgentRun> {
  const [stored] = await db.insert(agentRuns).values(run).returning()
  return stored
}

export function toRunResult(run: AgentRun, output: string, knowledge: RunKnowledge = null): AgentRunResult {
  return {
    output,
    handoff: run.handoffReason === null ? null : { reason: run.handoffReason },
    executionId: run.executionId,
    modelUsed: run.modelUsed ?? '',
    tokensUsed: { prompt: run.promptTokens, completion: run.completionTokens, total: run.totalTokens },
    latencyMs: run.latencyMs,
    timestamp: run.createdAt.toISOString(),
    knowledge,
    language: run.language,
  }
}

const runPassagesOf = (hits: KnowledgeHit[]): RunPassage[] =>
  hits.map(({ sourceId, title, headingPath, score, text, url }) => ({
    sourceId,
    title,
    headingPath,
    score,
    text,
    url,
  }))

/** One question of a test conversation and the agent's answer to it (the Test Agent chat). */
export type TestTurn = { input: string; run: AgentRunResult }

/** What a run answers when no model provider is configured (it names the settings: for the API and the log). */
export const MODEL_NOT_CONFIGURED = NOT_CONFIGURED_MESSAGE

export const TEST_CONVERSATION_GONE = 'This test conversation is no longer available: start over'

/** What a stored run's knowledge was: its passages' snapshot (their text is not kept), or a miss. */
function storedKnowledge(row: AgentRun): RunKnowledge {
  const miss = row.context?.knowledgeMiss === true
  const passages = (row.knowledge ?? []).map(({ sourceId, title, headingPath, score }) => ({
    sourceId,
    title,
    headingPath,
    score,
    text: '',
    url: null,
  }))
  return miss || row.knowledge !== null ? { passages, miss } : null
}

/**
 * The earlier turns of a test conversation, named by execution id: this agent's answered runs in its
 * organization, in the order given. One that is not (another agent's, a failed run, an unknown id) refuses the
 * whole conversation. `agent` must be the scope's (getAgent).
 */
export async function loadTestTurns(
  scope: OrganizationScope,
  agent: Pick<AgentView, 'id'>,
  executionIds: string[] = [],
): Promise<TestTurn[]> {
  if (executionIds.length === 0) return []
  const rows = await scope.db
    .select()
    .from(agentRuns)
    .where(
      and(
        eq(agentRuns.organizationId, scope.organizationId),
        eq(agentRuns.agentId, agent.id),
        inArray(agentRuns.executionId, executionIds),
        isNull(agentRuns.error),
      ),
    )
  const byId = new Map(rows.map((row) => [row.executionId, row]))
  return executionIds.map((executionId) => {
    const row = byId.get(executionId)
    if (!row || row.output === null) {
      throw new AppError('VALIDATION_ERROR', TEST_CONVERSATION_GONE, { history: [TEST_CONVERSATION_GONE] })
    }
    return { input: row.input, run: toRunResult(row, row.output, storedKnowledge(row)) }
  })
}

const asText = (text: string) => ({ text, kind: 'text' as const })

/**
 * The conversation so far as the model reads it; an answer that was only a handoff reads as its message, as the
 * customer would have got it.
 */
function conversationOf(
  earlier: TestTurn[],
  input: string,
  agent: Pick<AgentView, 'handoffMessage' | 'replyLanguage' | 'translations'>,
  language: string | null | undefined,
): ChatMessage[] {
  const handoff = builtInTextFor('handoff', agent.handoffMessage, agent, language)
  const messages: ChatMessage[] = []
  for (const { input: asked, run } of earlier) {
    messages.push({ role: 'user', content: asked })
    const answered = run.output || (run.handoff ? handoff : '')
    if (answered) messages.push({ role: 'assistant', content: answered })
  }
  messages.push({ role: 'user', content: input })
  return messages
}

/**
 * POST .../agents/{id}/run and the Test Agent dialog: a message, after the earlier turns `history` names, the
 * agent's answer and the run's details; `earlier`: those turns, for the chat to show.
 */
export async function runAgentTurn(
  scope: OrganizationScope,
  agentId: string,
  { input, context, history }: RunAgentInput,
  {
    models,
    embeddings,
  }: {
    models: Pick<ModelClient, 'generate'>
    /** The knowledge's embedding model, when one is configured. */
    embeddings?: KnowledgeEmbeddings
  },
): Promise<{ earlier: TestTurn[]; result: AgentRunResult }> {
  const agent = await getAgent(scope, agentId)
  if (agent.status === 'archived') throw new AppError('CONFLICT', 'An archived agent cannot run')
  const earlier = await loadTestTurns(scope, agent, history)
  const testMode = context?.metadata?.testMode === true
  // Grounded as the reply pipeline grounds a customer's question (reply.server.ts): on the newest message.
  const grounding = await groundQuestion(scope.db, agent, input, embeddings)
  const hits = grounding.kind === 'passages' ? grounding.hits : undefined
  // As a conversation would: the language its messages told, a greeting alone only while none is known (an agent
  // fixed to a language answers in that one whatever it is).
  const languages = await detectLanguages([...earlier.map((turn) => turn.input), input].map(asText))
  const language = conversationLanguage(null, languages)
  try {
    const call = await callAgentModel({
      db: scope.db,
      agent,
      messages: conversationOf(earlier, input, agent, language),
      knowledge: hits,
      language,
      testMode,
      context,
      models,
    })
    const miss = foundNoAnswer(call, hits)
    const run = await recordRun(scope.db, miss ? knowledgeMissRun(call.run, agent, language) : call.run)
    // The dialog tells the two apart: answered (from passages or the instructions), or the "don't know" path.
    const knowledge = hits ? { passages: runPassagesOf(hits), miss } : null
    return { earlier, result: toRunResult(run, miss ? (run.output ?? '') : call.output, knowledge) }
  } catch (error) {
    if (error instanceof ModelError) throw new AppError('UPSTREAM_ERROR', error.message, { kind: error.kind })
    throw error
  }
}

/** The run API's answer: the new run alone (spec section 3's Agent run result). */
export async function runAgent(...args: Parameters<typeof runAgentTurn>): Promise<AgentRunResult> {
  return (await runAgentTurn(...args)).result
}
