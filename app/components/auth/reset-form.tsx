import { useForm } from '@conform-to/react'
import type { z } from 'zod'
import type { resetSchema } from '~/lib/auth-schemas'
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core'
import { Form, Link, useNavigate, useNavigation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { PendingButton } from '~/components/forms/pending-button'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { RESET_SUCCESS_RETURN_MS } from '~/lib/constants'
import { FormError } from './form-error'
import { resultFor, type LoginActionData } from './types'

export function ResetForm({
  actionData,
  modeLink,
}: {
  actionData: LoginActionData | undefined
  modeLink: (mode: string) => string
}) {
  const hydrated = useHydrated()
  const navigate = useNavigate()
  const navigation = useNavigation()
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'reset'
  const sent = actionData?.intent === 'reset' && actionData.resetSent === true
  const [email, setEmail] = useState('')
  const [form, fields] = useForm<z.input<typeof resetSchema>>({
    id: 'reset',
    lastResult: resultFor(actionData, 'reset'),
  })

  useEffect(() => {
    if (!sent) return
    const timer = setTimeout(() => navigate(modeLink('signin'), { replace: true }), RESET_SUCCESS_RETURN_MS)
    return () => clearTimeout(timer)
  }, [sent, navigate, modeLink])

  return (
    <Form method="post" id={form.id} onSubmit={form.onSubmit} aria-label="Reset password">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Enter your email and we will send you a link to reset your password.
        </Text>
        {sent ? (
          <Alert color="green" variant="light" role="status">
            Password reset email sent! Check your inbox.
          </Alert>
        ) : null}
        <FormError message={form.errors?.[0]} />
        <input type="hidden" name="intent" value="reset" />
        <TextInput
          label="Email"
          id={fields.email.id}
          name={fields.email.name}
          type="email"
          autoComplete="email"
          required
          error={fields.email.errors?.[0]}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <Group grow>
          <Button component={Link} to={modeLink('signin')} variant="default">
            Back
          </Button>
          <PendingButton pending={pending} pendingLabel="Sending..." disabled={hydrated && !email}>
            Send Reset Link
          </PendingButton>
        </Group>
      </Stack>
    </Form>
  )
}
