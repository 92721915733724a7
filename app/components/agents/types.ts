import type { SubmissionResult } from '@conform-to/react'
import type { AgentStatus, ModelType } from '~/lib/agent-schemas'

/** What the Agents screen shows of an agent (the loader's AgentView, as the browser receives it). */
export type AgentItem = {
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

/** The Agent run result of the spec (section 3), as the Test Agent dialog shows it. */
export type AgentRunView = {
  output: string
  executionId: string
  modelUsed: string
  tokensUsed: { prompt: number; completion: number; total: number }
  timestamp: string
}

type AgentRef = { id: string; name: string }

/** The route action's answers, one per intent; `error` is the reason a toast reports. */
export type AgentSaveResponse = {
  intent: 'create' | 'update'
  result: SubmissionResult<string[]>
  saved: AgentRef | null
  error: string | null
}
export type AgentDeleteResponse = { intent: 'delete'; deleted: AgentRef | null; error: string | null }
export type AgentTestResponse = {
  intent: 'test'
  result: SubmissionResult<string[]>
  run: AgentRunView | null
  error: string | null
}
export type AgentActionResponse = AgentSaveResponse | AgentDeleteResponse | AgentTestResponse
