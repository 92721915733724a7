import { Badge } from '@mantine/core'
import {
  CONVERSATION_STATE_LABELS,
  CONVERSATION_STATUS_LABELS,
  type ConversationState,
  type ConversationStatus,
} from '~/lib/conversations/conversations'

// The tint says which state at a glance; the text is dark enough to read on it (4.5:1: Mantine's light variant
// writes in the colour's own middle shade, 2-3:1 on its tint at a badge's size).
const STATE_COLORS: Record<ConversationState, { tint: string; text: string }> = {
  ai: { tint: 'teal', text: 'teal.9' },
  paused: { tint: 'yellow', text: 'gray.9' },
  needs_attention: { tint: 'red', text: 'red.9' },
}

/** The states in a word or two, for the list's rows (the open conversation says them in full). */
const SHORT_LABELS: Record<ConversationState, string> = {
  ai: 'AI',
  paused: 'Paused',
  needs_attention: 'Needs attention',
}

/** The conversation's state in words (the colour only repeats them); `short` for the list's rows. */
export function StateBadge({ state, short = false }: { state: ConversationState; short?: boolean }) {
  const { tint, text } = STATE_COLORS[state]
  return (
    <Badge
      color={tint}
      c={text}
      variant="light"
      radius="sm"
      size={short ? 'sm' : 'md'}
      style={{ textTransform: 'none', flexShrink: 0 }}
    >
      {short ? SHORT_LABELS[state] : CONVERSATION_STATE_LABELS[state]}
    </Badge>
  )
}

/** A resolved or snoozed conversation (an open one says nothing: it is the usual case). */
export function StatusBadge({
  status,
  short = false,
}: {
  status: Exclude<ConversationStatus, 'open'>
  short?: boolean
}) {
  return (
    <Badge
      color="gray"
      c="gray.9"
      variant="light"
      radius="sm"
      size={short ? 'sm' : 'md'}
      style={{ textTransform: 'none', flexShrink: 0 }}
    >
      {CONVERSATION_STATUS_LABELS[status]}
    </Badge>
  )
}
