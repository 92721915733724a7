import { isDialogChange as isUrlDialogChange } from '~/lib/url-dialog'

/**
 * The Agents screen's dialogs live in the URL (?dialog=edit&agent=<id>), so that links open them, the back button
 * closes them, and a browser without JavaScript gets the same dialog rendered into the page.
 */
export const AGENTS_PATH = '/agents'

export const AGENT_DIALOGS = ['create', 'edit', 'view', 'test', 'delete'] as const
export type AgentDialogKind = (typeof AGENT_DIALOGS)[number]
export type AgentDialog = { kind: 'create' } | { kind: Exclude<AgentDialogKind, 'create'>; agentId: string }

const isDialogKind = (value: string | null): value is AgentDialogKind =>
  AGENT_DIALOGS.some((kind) => kind === value)

export function parseAgentDialog(search: string): AgentDialog | null {
  const params = new URLSearchParams(search)
  const kind = params.get('dialog')
  if (!isDialogKind(kind)) return null
  if (kind === 'create') return { kind }
  const agentId = params.get('agent')
  return agentId ? { kind, agentId } : null
}

export function agentDialogHref(kind: 'create'): string
export function agentDialogHref(kind: Exclude<AgentDialogKind, 'create'>, agentId: string): string
export function agentDialogHref(kind: AgentDialogKind, agentId?: string): string {
  const params = new URLSearchParams({ dialog: kind })
  if (agentId) params.set('agent', agentId)
  return `${AGENTS_PATH}?${params}`
}

export const dialogKey = (dialog: AgentDialog) =>
  dialog.kind === 'create' ? 'create' : `${dialog.kind}:${dialog.agentId}`

/** Opening or closing a dialog of this screen. */
export const isDialogChange = (
  from: { pathname: string; search: string },
  to: { pathname: string; search: string },
) => isUrlDialogChange(from, to, 'agent')
