import { Button, Loader, type ButtonProps } from '@mantine/core'
import { Form } from '@remix-run/react'
import type { ComponentProps, ReactNode } from 'react'

/** A submit button that says what it is doing ("Signing in...", "Saving...") and cannot be pressed twice. */
export function PendingButton({
  pending,
  pendingLabel,
  children,
  disabled,
  ...props
}: ButtonProps & {
  pending: boolean
  pendingLabel: string
  children: ReactNode
  type?: 'submit' | 'button'
  form?: string
  name?: string
  value?: string
  onClick?: () => void
}) {
  return (
    <Button
      type="submit"
      {...props}
      disabled={disabled || pending}
      aria-busy={pending}
      leftSection={pending ? <Loader size={14} color="currentColor" aria-hidden /> : props.leftSection}
    >
      {pending ? pendingLabel : children}
    </Button>
  )
}

/**
 * One button in a form of its own that posts an intent about one row (`name=value` as a hidden field): Remove,
 * Revoke. A plain form, so it works without JavaScript.
 */
export function RowActionForm({
  field,
  intent,
  ...button
}: Omit<ComponentProps<typeof PendingButton>, 'name' | 'value'> & {
  field: { name: string; value: string }
  intent: string
}) {
  return (
    <Form method="post">
      <input type="hidden" name={field.name} value={field.value} />
      <PendingButton name="intent" value={intent} size="xs" {...button} />
    </Form>
  )
}
