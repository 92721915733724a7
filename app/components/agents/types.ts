import type { AgentBehaviour } from '~/lib/agents/behaviour'
import type { AgentKnowledge } from '~/lib/agents/knowledge'
import type { BuiltInLanguage, TextTranslations } from '~/lib/agents/built-in-texts'
import type { KnowledgeSourceKind, KnowledgeStatus } from '~/lib/knowledge/knowledge'
import type { AgentStatus, ModelType } from '~/lib/agents/schemas'

/** What the Agents screen shows of an agent (the loaders' AgentView, as the browser receives it). */
export type AgentItem = AgentBehaviour &
  AgentKnowledge & {
    id: string
    readableId: string
    name: string
    description: string | null
    modelType: ModelType
    creativityLevel: number
    systemPrompt: string
    maxTokens: number | null
    topP: number | null
    topK: number | null
    status: AgentStatus
    replyLanguage: BuiltInLanguage | null
    translations: TextTranslations
    createdBy: string | null
    createdAt: Date | string
    updatedAt: Date | string
  }

/** A knowledge source as the agent form offers it and the details name it. */
export type KnowledgeSourceOption = {
  id: string
  title: string
  kind: KnowledgeSourceKind
  status: KnowledgeStatus
}
