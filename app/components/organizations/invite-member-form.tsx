import type { SubmissionResult } from '@conform-to/react'
import { Group, TextInput } from '@mantine/core'
import { Form } from '@remix-run/react'
import { FormError } from '~/components/auth/form-error'
import { fieldProps } from '~/components/forms/field-props'
import { PendingButton } from '~/components/forms/pending-button'
import { useSchemaForm } from '~/components/forms/use-schema-form'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { inviteMemberSchema } from '~/lib/organizations/schemas'

/** An owner invites a person by email; the same schema checks it here and in the Settings action. */
export function InviteMemberForm({
  lastResult,
  pending,
}: {
  lastResult: SubmissionResult<string[]> | undefined
  pending: boolean
}) {
  const hydrated = useHydrated()
  const [form, fields] = useSchemaForm('invite-member', inviteMemberSchema, lastResult)
  return (
    <Form
      method="post"
      id={form.id}
      onSubmit={form.onSubmit}
      noValidate={hydrated}
      aria-label="Invite a member"
    >
      <FormError message={form.errors?.[0]} />
      <Group align="flex-start" gap="sm" mt={form.errors?.length ? 'sm' : 0}>
        <TextInput
          label="Email address"
          placeholder="colleague@example.com"
          type="email"
          autoComplete="off"
          {...fieldProps(fields.email)}
          key={fields.email.key}
          required
          style={{ flex: '1 1 16rem' }}
        />
        <PendingButton
          name="intent"
          value="invite"
          pending={pending}
          pendingLabel="Sending..."
          mt={{ base: 0, xs: 25 }}
        >
          Send invitation
        </PendingButton>
      </Group>
    </Form>
  )
}
