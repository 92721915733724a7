import { Badge } from '@mantine/core'
import { CONVERSATION_STATE_LABELS, type ConversationState } from '~/lib/conversations'

const STATE_COLORS: Record<ConversationState, string> = {
  ai: 'teal',
  paused: 'yellow',
  needs_attention: 'red',
}

/** The conversation's state in words (the colour only repeats them). */
export function StateBadge({ state }: { state: ConversationState }) {
  return (
    <Badge color={STATE_COLORS[state]} variant="light" radius="sm" style={{ textTransform: 'none' }}>
      {CONVERSATION_STATE_LABELS[state]}
    </Badge>
  )
}
