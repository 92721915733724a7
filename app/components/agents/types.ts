import type { AgentBehaviour } from '~/lib/agent-behaviour'
import type { AgentStatus, ModelType } from '~/lib/agent-schemas'

/** What the Agents screen shows of an agent (the loaders' AgentView, as the browser receives it). */
export type AgentItem = AgentBehaviour & {
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
  createdBy: string | null
  createdAt: Date | string
  updatedAt: Date | string
}
