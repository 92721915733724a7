import type { SubmissionResult } from '@conform-to/react'
import { Button, Group, Stack, TextInput } from '@mantine/core'
import { Form } from '@remix-run/react'
import { useState, type ComponentProps } from 'react'
import { PendingButton } from '~/components/forms/pending-button'
import { FormError } from '~/components/auth/form-error'
import { useSchemaForm } from '~/components/forms/use-schema-form'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { createOrganizationSchema } from '~/lib/organizations/schemas'

function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? ''
}

/**
 * The Create Organization form, used by the dialog (through a fetcher's Form) and by the page that serves
 * browsers without JavaScript (a plain Form that returns to redirectTo).
 */
export function CreateOrganizationForm({
  lastResult,
  redirectTo,
  pending = false,
  onCancel,
  FormComponent = Form,
}: {
  lastResult: SubmissionResult<string[]> | undefined
  redirectTo?: string
  pending?: boolean
  onCancel?: () => void
  FormComponent?: (props: ComponentProps<typeof Form>) => React.ReactNode
}) {
  const hydrated = useHydrated()
  const [name, setName] = useState('')
  const [form, fields] = useSchemaForm('create-organization', createOrganizationSchema, lastResult)
  return (
    <FormComponent
      method="post"
      action="/organization"
      id={form.id}
      onSubmit={form.onSubmit}
      noValidate={hydrated}
      aria-label="Create Organization"
    >
      <Stack gap="md">
        <FormError message={form.errors?.[0]} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        {/* The organization starts in the creator's time zone (without JavaScript: UTC, changed in Settings). */}
        {hydrated ? <input type="hidden" name="timeZone" value={browserTimeZone()} /> : null}
        <TextInput
          label="Organization Name"
          placeholder="My Company"
          id={fields.name.id}
          name={fields.name.name}
          required
          data-autofocus
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={fields.name.errors?.[0]}
          disabled={pending}
        />
        <Group justify="flex-end">
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={pending}>
              Cancel
            </Button>
          ) : null}
          <PendingButton pending={pending} pendingLabel="Creating...">
            Create Organization
          </PendingButton>
        </Group>
      </Stack>
    </FormComponent>
  )
}
