import { useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Group, TextInput } from '@mantine/core'
import { Form } from '@remix-run/react'
import { FormError } from '~/components/auth/form-error'
import { PendingButton } from '~/components/forms/pending-button'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { inviteMemberSchema } from '~/lib/organization-schemas'

/** An owner invites a person by email; the same schema checks it here and in the Settings action. */
export function InviteMemberForm({
  lastResult,
  pending,
}: {
  lastResult: SubmissionResult<string[]> | undefined
  pending: boolean
}) {
  const hydrated = useHydrated()
  const [form, fields] = useForm({
    id: 'invite-member',
    lastResult,
    constraint: getZodConstraint(inviteMemberSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: inviteMemberSchema }),
  })
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
          id={fields.email.id}
          name={fields.email.name}
          key={fields.email.key}
          defaultValue={fields.email.initialValue}
          required
          error={fields.email.errors?.[0]}
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
