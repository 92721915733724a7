import type { z } from 'zod'
import type { resetSchema } from '~/lib/auth/schemas'
import { Alert, Button, Group, Text } from '@mantine/core'
import { Link, useNavigate } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { PendingButton } from '~/components/forms/pending-button'
import { RESET_SUCCESS_RETURN_MS } from '~/lib/shared/constants'
import { EmailField, LoginForm, useLoginForm, type LoginFormProps } from './login-form'

export function ResetForm({ actionData, modeLink }: Omit<LoginFormProps, 'redirectTo'>) {
  const { hydrated, pending, form, fields } = useLoginForm<z.input<typeof resetSchema>>('reset', actionData)
  const navigate = useNavigate()
  const sent = actionData?.intent === 'reset' && actionData.resetSent === true
  const [email, setEmail] = useState('')

  useEffect(() => {
    if (!sent) return
    const timer = setTimeout(() => navigate(modeLink('signin'), { replace: true }), RESET_SUCCESS_RETURN_MS)
    return () => clearTimeout(timer)
  }, [sent, navigate, modeLink])

  return (
    <LoginForm
      intent="reset"
      label="Reset password"
      form={form}
      intro={
        <>
          <Text size="sm" c="dimmed">
            Enter your email and we will send you a link to reset your password.
          </Text>
          {sent ? (
            <Alert color="green" variant="light" role="status">
              Password reset email sent! Check your inbox.
            </Alert>
          ) : null}
        </>
      }
    >
      <EmailField field={fields.email} onChange={(e) => setEmail(e.currentTarget.value)} />
      <Group grow>
        <Button component={Link} to={modeLink('signin')} variant="default">
          Back
        </Button>
        <PendingButton pending={pending} pendingLabel="Sending..." disabled={hydrated && !email}>
          Send Reset Link
        </PendingButton>
      </Group>
    </LoginForm>
  )
}
