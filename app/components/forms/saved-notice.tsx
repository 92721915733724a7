import { Text } from '@mantine/core'
import type { FetcherWithComponents } from '@remix-run/react'

/** "Saved" under a small form sent by a fetcher: shown once its answer came back with no error. */
export function FetcherSavedNotice({
  fetcher,
  children,
}: {
  fetcher: Pick<FetcherWithComponents<{ error?: string | null }>, 'data' | 'state'>
  children: string
}) {
  if (!fetcher.data || fetcher.data.error || fetcher.state !== 'idle') return null
  return (
    <Text size="xs" c="green.8" role="status">
      {children}
    </Text>
  )
}
