import type { z } from 'zod'
import type { signInSchema } from '~/lib/auth/schemas'
import { Anchor, Group, PasswordInput } from '@mantine/core'
import { Link } from '@remix-run/react'
import { useState } from 'react'
import { fieldProps } from '~/components/forms/field-props'
import { PendingButton } from '~/components/forms/pending-button'
import { EmailField, LoginForm, useLoginForm, type LoginFormProps } from './login-form'

export function SignInForm({ actionData, redirectTo, modeLink }: LoginFormProps) {
  const { hydrated, pending, form, fields } = useLoginForm<z.input<typeof signInSchema>>(
    'sign-in',
    actionData,
  )
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')

  return (
    <LoginForm intent="sign-in" label="Sign in" form={form} redirectTo={redirectTo}>
      <EmailField field={fields.email} onChange={(e) => setEmail(e.currentTarget.value)} />
      <PasswordInput
        label="Password"
        {...fieldProps(fields.password)}
        autoComplete="current-password"
        required
        minLength={6}
        onChange={(e) => setPassword(e.currentTarget.value)}
      />
      <Group justify="flex-end">
        <Anchor component={Link} to={modeLink('reset')} size="sm">
          Forgot password?
        </Anchor>
      </Group>
      <PendingButton
        fullWidth
        pending={pending}
        pendingLabel="Signing in..."
        disabled={hydrated && (!email || !password)}
      >
        Sign In
      </PendingButton>
      <Anchor component={Link} to={modeLink('signup')} size="sm" ta="center">
        Don&apos;t have an account? Sign up
      </Anchor>
    </LoginForm>
  )
}
