import { Paper, Text, Title } from '@mantine/core'
import type { ReactNode } from 'react'

/** A settings page's section: a titled card with its hint, named by its heading for screen readers. */
export function SettingsSection({
  id,
  title,
  hint,
  children,
}: {
  id: string
  title: string
  hint: string
  children: ReactNode
}) {
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby={`${id}-heading`}>
      <Title order={2} size="h4" mb="xs" id={`${id}-heading`}>
        {title}
      </Title>
      <Text size="sm" c="gray.7" mb="sm">
        {hint}
      </Text>
      {children}
    </Paper>
  )
}
