import { conversationListQuerySchema, type ConversationFilters } from './conversations'

type ListQuery = ReturnType<typeof conversationListQuerySchema.parse>
const FIELDS = conversationListQuerySchema.shape

/** The screen's status that means any status: with none in its query string, the inbox shows the open ones. */
export const ANY_STATUS = 'all'

/**
 * The inbox's list query from the screen's query string, as a person's form sends it: a blank field means "any"
 * (the form sends every field, empty or not), and a field that does not parse is left out on its own, never
 * taking the other filters with it. The screen shows the open conversations unless asked for `status=all`
 * (the API's list has no such default).
 */
export function readListQuery(params: URLSearchParams): ListQuery {
  const kept: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(FIELDS)) {
    const value = params.get(name)?.trim()
    if (!value) continue
    const parsed = field.safeParse(value)
    if (parsed.success) kept[name] = parsed.data
  }
  if (kept.status === undefined && params.get('status') !== ANY_STATUS) kept.status = 'open'
  return conversationListQuerySchema.parse(kept)
}

/** The screen's query string for these filters and page: what readListQuery reads back as the same. */
export function listSearch(filters: ConversationFilters, page = 1): string {
  const params = new URLSearchParams()
  if (filters.assignee) params.set('assignee', filters.assignee)
  if (filters.channelId) params.set('channelId', filters.channelId)
  if (filters.label) params.set('label', filters.label)
  if (filters.state) params.set('state', filters.state)
  if (filters.status !== 'open') params.set('status', filters.status ?? ANY_STATUS)
  if (filters.q) params.set('q', filters.q)
  if (page > 1) params.set('page', String(page))
  const search = params.toString()
  return search ? `?${search}` : ''
}
