import { useForm } from '@conform-to/react'
import type { z } from 'zod'
import type { signInSchema } from '~/lib/auth-schemas'
import { Anchor, Group, PasswordInput, Stack, TextInput } from '@mantine/core'
import { Form, Link, useNavigation } from '@remix-run/react'
import { useState } from 'react'
import { PendingButton } from '~/components/forms/pending-button'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { FormError } from './form-error'
import { resultFor, type LoginActionData } from './types'

export function SignInForm({
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
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'sign-in'
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [form, fields] = useForm<z.input<typeof signInSchema>>({
    id: 'sign-in',
    lastResult: resultFor(actionData, 'sign-in'),
  })

  return (
    <Form method="post" id={form.id} onSubmit={form.onSubmit} aria-label="Sign in">
      <Stack gap="md">
        <FormError message={form.errors?.[0]} />
        <input type="hidden" name="intent" value="sign-in" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextInput
          label="Email"
          id={fields.email.id}
          name={fields.email.name}
          type="email"
          autoComplete="email"
          required
          defaultValue={fields.email.initialValue}
          error={fields.email.errors?.[0]}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <PasswordInput
          label="Password"
          id={fields.password.id}
          name={fields.password.name}
          autoComplete="current-password"
          required
          minLength={6}
          error={fields.password.errors?.[0]}
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
      </Stack>
    </Form>
  )
}
