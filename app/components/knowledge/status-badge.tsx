import { Badge, Loader, Stack, Text } from '@mantine/core'
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react'
import type { KnowledgeStatus } from '~/lib/knowledge/knowledge'

const STATUS = {
  processing: { label: 'Processing', color: 'blue' },
  ready: { label: 'Ready', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
} satisfies Record<KnowledgeStatus, { label: string; color: string }>

export const statusLabel = (status: KnowledgeStatus) => STATUS[status].label

/** A source's status in words (the colour and the icon only repeat them); a failure's reason below it, as text. */
export function KnowledgeStatusBadge({
  status,
  failureReason,
}: {
  status: KnowledgeStatus
  failureReason: string | null
}) {
  const { label, color } = STATUS[status]
  const icon =
    status === 'processing' ? (
      <Loader size={10} color="blue.7" aria-hidden />
    ) : status === 'ready' ? (
      <IconCheck size={12} aria-hidden />
    ) : (
      <IconAlertTriangle size={12} aria-hidden />
    )
  return (
    <Stack gap={4} align="flex-start">
      <Badge color={color} variant="light" radius="sm" leftSection={icon} style={{ textTransform: 'none' }}>
        {label}
      </Badge>
      {status === 'failed' && failureReason ? (
        <Text size="xs" c="red.8" maw={220}>
          {failureReason}
        </Text>
      ) : null}
    </Stack>
  )
}
