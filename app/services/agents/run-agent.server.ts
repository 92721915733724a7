import { randomUUID } from 'node:crypto'
import type { Database } from '~/db/client.server'
import { agentRuns, type AgentRun } from '~/db/schema'
import { ModelError, type ChatMessage, type ModelClient } from '~/integrations/llm/model.server'
import type { RunAgentInput } from '~/lib/agents/schemas'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'
import { recordModelCall } from '~/utils/metrics.server'
import { getAgent, type AgentView } from './agents.server'
import type { KnowledgeHit } from '~/lib/knowledge/knowledge'
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
 * What knowledge the run used: the passages its prompt carried, or a miss (no passage answered: the model was not
 * asked and the output is the agent's no-answer message). Null when knowledge played no part (the agent uses none,
 * its organization has none yet, or the message was small talk).
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
  >
  messages: ChatMessage[]
  /** Knowledge passages the answer is grounded in: they go into the system prompt and the run records them. */
  knowledge?: KnowledgeHit[]
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
  knowledge = [],
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
    knowledge: knowledge.length > 0 ? usedPassagesOf(knowledge) : null,
  }
  const started = performance.now()
  try {
    const result = await models.generate({
      tier: agent.modelType,
      system: groundedSystemPrompt(agent.systemPrompt, knowledge),
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

/** A successful run as it is stored in agent_runs. */
export type SuccessfulRun = Awaited<ReturnType<typeof callAgentModel>>['run']

/**
 * A run whose model found no answer in the passages (it answered NO_ANSWER, see KNOWLEDGE_INSTRUCTION), as it is
 * stored: like a question no passage matched, its output is what the customer gets, the no-answer message; the
 * model, tokens and passages stay.
 */
export const knowledgeMissRun = (
  run: SuccessfulRun,
  agent: Pick<AgentView, 'knowledgeNoAnswerMessage'>,
): SuccessfulRun => ({
  ...run,
  output: agent.knowledgeNoAnswerMessage,
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

/**
 * A test question that no passage answers: as in a conversation, the model is not asked. The run is recorded (with
 * no model and no tokens) so that the test shows in the agent's history with what the customer would get.
 */
async function recordKnowledgeMiss(
  db: Database,
  agent: AgentView,
  input: string,
  { testMode, context }: { testMode: boolean; context: Record<string, unknown> | undefined },
): Promise<AgentRunResult> {
  const [run] = await db
    .insert(agentRuns)
    .values({
      executionId: `exec_${randomUUID()}`,
      organizationId: agent.organizationId,
      agentId: agent.id,
      input,
      testMode,
      context: { ...context, knowledgeMiss: true },
      knowledge: [],
      output: agent.knowledgeNoAnswerMessage,
      modelUsed: null,
      promptTokens: 0,
      completionTokens: 0,
      totalTokens: 0,
      latencyMs: 0,
      handoffReason: null,
    })
    .returning()
  return toRunResult(run, agent.knowledgeNoAnswerMessage, { passages: [], miss: true })
}

/** POST .../agents/{id}/run and the Test Agent dialog: one message, the agent's answer, the run's details. */
export async function runAgent(
  scope: OrganizationScope,
  agentId: string,
  { input, context }: RunAgentInput,
  {
    models,
    embeddings,
  }: {
    models: Pick<ModelClient, 'generate'>
    /** The knowledge's embedding model, when one is configured. */
    embeddings?: KnowledgeEmbeddings
  },
): Promise<AgentRunResult> {
  const agent = await getAgent(scope, agentId)
  if (agent.status === 'archived') throw new AppError('CONFLICT', 'An archived agent cannot run')
  const testMode = context?.metadata?.testMode === true
  // Grounded as the reply pipeline grounds a customer's question (reply.server.ts).
  const grounding = await groundQuestion(scope.db, agent, input, embeddings)
  if (grounding.kind === 'miss') return recordKnowledgeMiss(scope.db, agent, input, { testMode, context })
  const hits = grounding.kind === 'passages' ? grounding.hits : []
  try {
    const call = await callAgentModel({
      db: scope.db,
      agent,
      messages: [{ role: 'user', content: input }],
      knowledge: hits,
      testMode,
      context,
      models,
    })
    const miss = foundNoAnswer(call, hits)
    const run = await recordRun(scope.db, miss ? knowledgeMissRun(call.run, agent) : call.run)
    if (miss) return toRunResult(run, run.output ?? '', { passages: runPassagesOf(hits), miss: true })
    return toRunResult(
      run,
      call.output,
      hits.length > 0 ? { passages: runPassagesOf(hits), miss: false } : null,
    )
  } catch (error) {
    if (error instanceof ModelError) throw new AppError('UPSTREAM_ERROR', error.message, { kind: error.kind })
    throw error
  }
}
