import { conversationListQuerySchema } from './conversations'

type ListQuery = ReturnType<typeof conversationListQuerySchema.parse>
const FIELDS = conversationListQuerySchema.shape

/**
 * The inbox's list query from the screen's query string, as a person's form sends it: a blank field means "any"
 * (the form sends every field, empty or not), and a field that does not parse is left out on its own, never
 * taking the other filters with it.
 */
export function readListQuery(params: URLSearchParams): ListQuery {
  const kept: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(FIELDS)) {
    const value = params.get(name)?.trim()
    if (!value) continue
    const parsed = field.safeParse(value)
    if (parsed.success) kept[name] = parsed.data
  }
  return conversationListQuerySchema.parse(kept)
}
