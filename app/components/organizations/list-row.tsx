import { Group, Stack, Text } from '@mantine/core'
import type { ReactNode } from 'react'

/** A row of a short list: a name, a line of detail under it, and the row's action on the right. */
export function ListRow({
  title,
  detail,
  children,
}: {
  title: string
  detail?: ReactNode
  children: ReactNode
}) {
  return (
    <Group component="li" justify="space-between" wrap="nowrap">
      <div style={{ minWidth: 0 }}>
        <Text fw={500} style={{ wordBreak: 'break-word' }}>
          {title}
        </Text>
        {detail ? (
          <Text size="xs" c="gray.7">
            {detail}
          </Text>
        ) : null}
      </div>
      {children}
    </Group>
  )
}

/** The list that holds ListRows: a list to screen readers, without bullets. */
export function RowList({ gap, children }: { gap: 'xs' | 'sm'; children: ReactNode }) {
  return (
    <Stack gap={gap} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {children}
    </Stack>
  )
}
