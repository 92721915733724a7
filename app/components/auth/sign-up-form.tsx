import type { z } from 'zod'
import type { signUpSchema } from '~/lib/auth/schemas'
import { Anchor, PasswordInput, TextInput } from '@mantine/core'
import { Link } from '@remix-run/react'
import { useState } from 'react'
import { fieldProps } from '~/components/forms/field-props'
import { PendingButton } from '~/components/forms/pending-button'
import { EmailField, LoginForm, useLoginForm, type LoginFormProps } from './login-form'
import { PasswordChecklist } from './password-checklist'

export function SignUpForm({ actionData, redirectTo, modeLink }: LoginFormProps) {
  const { hydrated, pending, form, fields } = useLoginForm<z.input<typeof signUpSchema>>(
    'sign-up',
    actionData,
  )
  const [values, setValues] = useState({ displayName: '', email: '', password: '', confirmPassword: '' })
  const track = (key: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const value = e.currentTarget.value
    setValues((v) => ({ ...v, [key]: value }))
  }
  const incomplete = Object.values(values).some((v) => v === '')

  return (
    <LoginForm intent="sign-up" label="Sign up" form={form} redirectTo={redirectTo}>
      <TextInput
        label="Full Name"
        {...fieldProps(fields.displayName)}
        autoComplete="name"
        required
        onChange={track('displayName')}
      />
      <EmailField field={fields.email} onChange={track('email')} />
      <PasswordInput
        label="Password"
        {...fieldProps(fields.password)}
        autoComplete="new-password"
        required
        minLength={6}
        onChange={track('password')}
      />
      <PasswordChecklist password={values.password} />
      <PasswordInput
        label="Confirm Password"
        {...fieldProps(fields.confirmPassword)}
        autoComplete="new-password"
        required
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
    </LoginForm>
  )
}
