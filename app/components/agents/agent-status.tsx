import { Badge, Group, Text } from '@mantine/core'
import type { AgentStatus, ModelType } from '~/lib/agents/schemas'
import classes from './agents.module.css'

export const STATUS_LABELS: Record<AgentStatus, string> = {
  active: 'Active',
  inactive: 'Inactive',
  archived: 'Archived',
}

const STATUS_COLORS: Record<AgentStatus, string> = {
  active: 'green',
  inactive: 'yellow',
  archived: 'gray',
}

/** The card's short model name; the dialogs use MODEL_TYPE_LABELS. */
export const MODEL_SHORT_LABELS: Record<ModelType, string> = {
  simple: 'Simple',
  medium: 'Medium',
  pro: 'Pro',
}

/** A coloured dot with the status in words: the colour only repeats what the text says. */
export function StatusDot({ status }: { status: AgentStatus }) {
  return (
    <Group gap={6} wrap="nowrap">
      <span
        className={classes.dot}
        style={{ background: `var(--mantine-color-${STATUS_COLORS[status]}-7)` }}
        aria-hidden
      />
      <Text size="sm" c="gray.8">
        {STATUS_LABELS[status]}
      </Text>
    </Group>
  )
}

export function StatusBadge({ status }: { status: AgentStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" radius="sm">
      {STATUS_LABELS[status]}
    </Badge>
  )
}
