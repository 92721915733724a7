import { Group, Text, type ButtonProps } from '@mantine/core'
import { useFetcher } from '@remix-run/react'
import { PendingButton } from '~/components/forms/pending-button'

/**
 * One button that posts to an action route of the open conversation (pause, resume, send again): a plain form
 * before hydration, a fetcher after, with the refusal beside it.
 */
export function ActionButton({
  action,
  label,
  pendingLabel,
  fields = {},
  ...button
}: ButtonProps & { action: string; label: string; pendingLabel: string; fields?: Record<string, string> }) {
  const fetcher = useFetcher<{ error?: string | null }>()
  return (
    <fetcher.Form method="post" action={action}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Group gap="xs">
        <PendingButton pending={fetcher.state !== 'idle'} pendingLabel={pendingLabel} {...button}>
          {label}
        </PendingButton>
        {fetcher.data?.error ? (
          <Text size="xs" c="red.8" role="alert">
            {fetcher.data.error}
          </Text>
        ) : null}
      </Group>
    </fetcher.Form>
  )
}
