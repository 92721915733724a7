import { useForm } from '@conform-to/react'
import type { z } from 'zod'
import type { signUpSchema } from '~/lib/auth-schemas'
import { Anchor, PasswordInput, Stack, TextInput } from '@mantine/core'
import { Form, Link, useNavigation } from '@remix-run/react'
import { useState } from 'react'
import { PendingButton } from '~/components/forms/pending-button'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { FormError } from './form-error'
import { PasswordChecklist } from './password-checklist'
import { resultFor, type LoginActionData } from './types'

export function SignUpForm({
  actionData,
  redirectTo,
  modeLink,
}: {
  actionData: LoginActionData | undefined
  redirectTo: string
  modeLink: (mode: string) => string
}) {
  const hydrated = useHydrated()
  const navigation = useNavigation()
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'sign-up'
  const [values, setValues] = useState({ displayName: '', email: '', password: '', confirmPassword: '' })
  const [form, fields] = useForm<z.input<typeof signUpSchema>>({
    id: 'sign-up',
    lastResult: resultFor(actionData, 'sign-up'),
  })
  const track = (key: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const value = e.currentTarget.value
    setValues((v) => ({ ...v, [key]: value }))
  }
  const incomplete = Object.values(values).some((v) => v === '')

  return (
    <Form method="post" id={form.id} onSubmit={form.onSubmit} aria-label="Sign up">
      <Stack gap="md">
        <FormError message={form.errors?.[0]} />
        <input type="hidden" name="intent" value="sign-up" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextInput
          label="Full Name"
          id={fields.displayName.id}
          name={fields.displayName.name}
          autoComplete="name"
          required
          defaultValue={fields.displayName.initialValue}
          error={fields.displayName.errors?.[0]}
          onChange={track('displayName')}
        />
        <TextInput
          label="Email"
          id={fields.email.id}
          name={fields.email.name}
          type="email"
          autoComplete="email"
          required
          defaultValue={fields.email.initialValue}
          error={fields.email.errors?.[0]}
          onChange={track('email')}
        />
        <PasswordInput
          label="Password"
          id={fields.password.id}
          name={fields.password.name}
          autoComplete="new-password"
          required
          minLength={6}
          error={fields.password.errors?.[0]}
          onChange={track('password')}
        />
        <PasswordChecklist password={values.password} />
        <PasswordInput
          label="Confirm Password"
          id={fields.confirmPassword.id}
          name={fields.confirmPassword.name}
          autoComplete="new-password"
          required
          error={fields.confirmPassword.errors?.[0]}
          onChange={track('confirmPassword')}
        />
        <PendingButton
          fullWidth
          pending={pending}
          pendingLabel="Creating account..."
          disabled={hydrated && incomplete}
        >
          Create Account
        </PendingButton>
        <Anchor component={Link} to={modeLink('signin')} size="sm" ta="center">
          Already have an account? Sign in
        </Anchor>
      </Stack>
    </Form>
  )
}
