import { Group, Text, type ButtonProps } from '@mantine/core'
import { useHotkeys } from '@mantine/hooks'
import { useFetcher } from '@remix-run/react'
import { useRef } from 'react'
import { PendingButton } from '~/components/forms/pending-button'

/**
 * One button that posts to an action route of the open conversation (pause, resume, resolve, send again): a
 * plain form before hydration, a fetcher after, with the refusal beside it. `shortcut`: a key that presses it
 * (not while typing in a field).
 */
export function ActionButton({
  action,
  label,
  pendingLabel,
  fields = {},
  shortcut,
  ...button
}: ButtonProps & {
  action: string
  label: string
  pendingLabel: string
  fields?: Record<string, string>
  shortcut?: string
}) {
  const fetcher = useFetcher<{ error?: string | null }>()
  const form = useRef<HTMLFormElement>(null)
  useHotkeys(
    shortcut
      ? [[shortcut, () => fetcher.state === 'idle' && form.current && fetcher.submit(form.current)]]
      : [],
  )
  return (
    <fetcher.Form method="post" action={action} ref={form}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Group gap="xs">
        <PendingButton
          pending={fetcher.state !== 'idle'}
          pendingLabel={pendingLabel}
          aria-keyshortcuts={shortcut}
          {...button}
        >
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
