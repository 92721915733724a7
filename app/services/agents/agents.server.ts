import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm'
import { agents, knowledgeSources, users } from '~/db/schema'
import type { AgentChanges, AgentRecord, AgentStatus, CreateAgentInput } from '~/lib/agents/schemas'
import { isUniqueViolation } from '~/db/errors.server'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'
import { isUuid } from '~/lib/shared/input'
import { AGENT_BEHAVIOUR_DEFAULTS } from '~/lib/agents/behaviour'
import { AGENT_KNOWLEDGE_TEXTS } from '~/lib/agents/knowledge'
import { AGENT_KNOWLEDGE_DEFAULTS } from '~/lib/knowledge/knowledge'
import { AGENT_LANGUAGE_DEFAULTS } from '~/lib/agents/agent-language'
import { translationsToStore, type AgentMessages } from '~/lib/agents/translations'

export const AGENT_NOT_FOUND = 'Agent not found'
export const READABLE_ID_TAKEN = 'An agent with this ID already exists in this organization'

/** What the API and the screens show of an agent (with who created it): the contract's agentSchema. */
export type AgentView = AgentRecord

const columns = {
  id: agents.id,
  organizationId: agents.organizationId,
  readableId: agents.readableId,
  name: agents.name,
  description: agents.description,
  modelType: agents.modelType,
  creativityLevel: agents.creativityLevel,
  systemPrompt: agents.systemPrompt,
  maxTokens: agents.maxTokens,
  topP: agents.topP,
  topK: agents.topK,
  status: agents.status,
  burstWaitSeconds: agents.burstWaitSeconds,
  handoffEnabled: agents.handoffEnabled,
  handoffMessage: agents.handoffMessage,
  fallbackMessage: agents.fallbackMessage,
  unreadableMessage: agents.unreadableMessage,
  officeHours: agents.officeHours,
  knowledgeMode: agents.knowledgeMode,
  knowledgeSourceIds: agents.knowledgeSourceIds,
  knowledgePassages: agents.knowledgePassages,
  knowledgeMinRelevance: agents.knowledgeMinRelevance,
  knowledgeNoAnswerMessage: agents.knowledgeNoAnswerMessage,
  replyLanguage: agents.replyLanguage,
  translations: agents.translations,
  createdAt: agents.createdAt,
  updatedAt: agents.updatedAt,
}

function selectAgents(scope: OrganizationScope, ...conditions: (SQL | undefined)[]) {
  return scope.db
    .select({ ...columns, createdBy: users.displayName, createdByEmail: users.email })
    .from(agents)
    .leftJoin(users, eq(users.id, agents.createdBy))
    .where(and(eq(agents.organizationId, scope.organizationId), ...conditions))
}

type Row = Awaited<ReturnType<typeof selectAgents>>[number]
const toView = ({ createdByEmail, ...row }: Row): AgentView => ({
  ...row,
  createdBy: row.createdBy ?? createdByEmail,
})

export async function listAgents(
  scope: OrganizationScope,
  { status, page = 1, pageSize = 100 }: { status?: AgentStatus; page?: number; pageSize?: number } = {},
) {
  const where = status ? eq(agents.status, status) : undefined
  const [rows, [{ total }]] = await Promise.all([
    selectAgents(scope, where)
      .orderBy(asc(agents.createdAt), asc(agents.name))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    scope.db
      .select({ total: count() })
      .from(agents)
      .where(and(eq(agents.organizationId, scope.organizationId), where)),
  ])
  return { items: rows.map(toView), total, page, pageSize }
}

export async function getAgent(scope: OrganizationScope, agentId: string): Promise<AgentView> {
  if (!isUuid(agentId)) throw new AppError('NOT_FOUND', AGENT_NOT_FOUND)
  const [row] = await selectAgents(scope, eq(agents.id, agentId)).limit(1)
  if (!row) throw new AppError('NOT_FOUND', AGENT_NOT_FOUND)
  return toView(row)
}

/**
 * The knowledge an agent answers from must be its own organization's: an id of another organization's source (or
 * of none) is refused, never stored. With "Selected sources", at least one. `sourceIds` are the ids given, which
 * are checked; ids stored before may name a source deleted since, which is simply no longer found.
 */
async function checkKnowledge(
  scope: OrganizationScope,
  mode: AgentView['knowledgeMode'],
  selected: string[],
  sourceIds: string[] | undefined,
) {
  if (mode === 'selected' && selected.length === 0) {
    const message = AGENT_KNOWLEDGE_TEXTS.selectSource
    throw new AppError('VALIDATION_ERROR', message, { knowledgeSourceIds: [message] })
  }
  if (!sourceIds?.length) return
  const found = await scope.db
    .select({ id: knowledgeSources.id })
    .from(knowledgeSources)
    .where(
      and(eq(knowledgeSources.organizationId, scope.organizationId), inArray(knowledgeSources.id, sourceIds)),
    )
  const known = new Set(found.map((row) => row.id))
  const unknown = sourceIds.find((id) => !known.has(id))
  if (unknown) {
    const message = AGENT_KNOWLEDGE_TEXTS.foreignSource(unknown)
    throw new AppError('VALIDATION_ERROR', message, { knowledgeSourceIds: [message] })
  }
}

/**
 * How the caller gives translations. `prefilled`: from the agent form, whose boxes were filled with what the
 * customer got; a box left so is no choice of the owner's (see translationsToStore).
 */
export type TranslationsGiven = { prefilled?: boolean }

/** What a new agent's form showed: a new agent's messages, no translations. */
const NEW_AGENT_SHOWN = {
  ...AGENT_BEHAVIOUR_DEFAULTS,
  ...AGENT_KNOWLEDGE_DEFAULTS,
  ...AGENT_LANGUAGE_DEFAULTS,
}

/** The agent's messages once the changes given are saved (a change left out keeps the stored text). */
const messagesAfter = (current: AgentMessages, changes: Partial<AgentMessages>): AgentMessages => ({
  handoffMessage: changes.handoffMessage ?? current.handoffMessage,
  fallbackMessage: changes.fallbackMessage ?? current.fallbackMessage,
  unreadableMessage: changes.unreadableMessage ?? current.unreadableMessage,
  officeHours: changes.officeHours === undefined ? current.officeHours : changes.officeHours,
  knowledgeNoAnswerMessage: changes.knowledgeNoAnswerMessage ?? current.knowledgeNoAnswerMessage,
})

/** Each id once, in the order given (uuids compare in lower case, as PostgreSQL returns them). */
const uniqueIds = (ids: string[]) => [...new Set(ids.map((id) => id.toLowerCase()))]

export async function createAgent(
  scope: OrganizationScope,
  input: CreateAgentInput,
  { prefilled = false }: TranslationsGiven = {},
): Promise<AgentView> {
  const knowledgeSourceIds = uniqueIds(input.knowledgeSourceIds ?? [])
  const saved = messagesAfter(NEW_AGENT_SHOWN, input)
  const translations = translationsToStore(
    input.translations ?? {},
    saved,
    prefilled ? NEW_AGENT_SHOWN : undefined,
  )
  const knowledgeMode = input.knowledgeMode ?? AGENT_KNOWLEDGE_DEFAULTS.knowledgeMode
  await checkKnowledge(scope, knowledgeMode, knowledgeSourceIds, knowledgeSourceIds)
  try {
    const [created] = await scope.db
      .insert(agents)
      .values({
        organizationId: scope.organizationId,
        createdBy: scope.userId,
        // A new agent waits for bursts and may hand over; the columns' defaults are for agents made before.
        // A new agent answers from all of the organization's knowledge; agents made before answer from none.
        ...AGENT_BEHAVIOUR_DEFAULTS,
        ...AGENT_KNOWLEDGE_DEFAULTS,
        ...input,
        knowledgeSourceIds,
        translations,
        description: input.description || null,
      })
      .returning({ id: agents.id })
    return getAgent(scope, created.id)
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError('CONFLICT', READABLE_ID_TAKEN, { readableId: [READABLE_ID_TAKEN] })
    }
    throw error
  }
}

/** Changes only the fields given (Drizzle leaves out a key whose value is undefined); null clears an optional one. */
export async function updateAgent(
  scope: OrganizationScope,
  agentId: string,
  { readableId: _immutable, description, ...changes }: AgentChanges,
  { prefilled = false }: TranslationsGiven = {},
): Promise<AgentView> {
  const current = await getAgent(scope, agentId)
  const translations =
    changes.translations &&
    translationsToStore(
      changes.translations,
      messagesAfter(current, changes),
      prefilled ? current : undefined,
    )
  const { knowledgeMode } = changes
  const knowledgeSourceIds = changes.knowledgeSourceIds && uniqueIds(changes.knowledgeSourceIds)
  if (knowledgeMode !== undefined || knowledgeSourceIds !== undefined) {
    await checkKnowledge(
      scope,
      knowledgeMode ?? current.knowledgeMode,
      knowledgeSourceIds ?? current.knowledgeSourceIds,
      knowledgeSourceIds,
    )
  }
  await scope.db
    .update(agents)
    .set({
      ...changes,
      knowledgeSourceIds,
      translations,
      ...(description === undefined ? {} : { description: description || null }),
      updatedAt: new Date(),
    })
    .where(and(eq(agents.organizationId, scope.organizationId), eq(agents.id, agentId)))
  return getAgent(scope, agentId)
}

/** Deleting an agent archives it: its runs and history stay, and it answers no one any more. */
export async function archiveAgent(scope: OrganizationScope, agentId: string): Promise<AgentView> {
  await getAgent(scope, agentId)
  await scope.db
    .update(agents)
    .set({ status: 'archived', updatedAt: new Date() })
    .where(and(eq(agents.organizationId, scope.organizationId), eq(agents.id, agentId)))
  return getAgent(scope, agentId)
}
