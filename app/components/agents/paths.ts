/** The Agents screen and its dialogs, one URL each (docs/decisions/033-dialogs-as-nested-routes.md). */
export const AGENTS_PATH = '/agents'
export const NEW_AGENT_PATH = `${AGENTS_PATH}/new`

export type AgentDialog = 'edit' | 'test' | 'delete'

/** The agent's details (View), or one of its dialogs. */
export const agentPath = (agentId: string, dialog?: AgentDialog) =>
  `${AGENTS_PATH}/${encodeURIComponent(agentId)}${dialog ? `/${dialog}` : ''}`

/** The organization's knowledge sources (issue #18). */
export const KNOWLEDGE_PATH = '/knowledge'

/** Create New Agent, starting from a template (`?template=`), or blank. */
export const newAgentPath = (templateId?: string) =>
  templateId ? `${NEW_AGENT_PATH}?template=${encodeURIComponent(templateId)}` : NEW_AGENT_PATH
