import { useForm } from '@conform-to/react'
import { Stack, TextInput } from '@mantine/core'
import { Form, useNavigation } from '@remix-run/react'
import type { ChangeEvent, ReactNode } from 'react'
import { fieldProps } from '~/components/forms/field-props'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { FormError } from './form-error'
import { resultFor, type LoginActionData, type LoginIntent } from './types'

export type LoginFormProps = {
  actionData: LoginActionData | undefined
  redirectTo: string
  modeLink: (mode: string) => string
}

/**
 * What each form of the sign-in page starts with: whether the page is hydrated, whether this form's own intent is
 * being posted (the page holds several), and its Conform form fed by the action's answer to that intent.
 */
export function useLoginForm<Schema extends Record<string, unknown>>(
  intent: LoginIntent,
  actionData: LoginActionData | undefined,
) {
  const hydrated = useHydrated()
  const navigation = useNavigation()
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent
  const [form, fields] = useForm<Schema>({ id: intent, lastResult: resultFor(actionData, intent) })
  return { hydrated, pending, form, fields }
}

/** A form of the sign-in page: the provider's message on top, the intent and where to go after it posted. */
export function LoginForm({
  intent,
  label,
  form,
  redirectTo,
  intro,
  children,
}: {
  intent: LoginIntent
  label: string
  /** What stands above the provider's message (the reset form's explanation). */
  intro?: ReactNode
  form: { id: string; onSubmit: (event: React.FormEvent<HTMLFormElement>) => void; errors?: string[] }
  redirectTo?: string
  children: ReactNode
}) {
  return (
    <Form method="post" id={form.id} onSubmit={form.onSubmit} aria-label={label}>
      <Stack gap="md">
        {intro}
        <FormError message={form.errors?.[0]} />
        <input type="hidden" name="intent" value={intent} />
        {redirectTo === undefined ? null : <input type="hidden" name="redirectTo" value={redirectTo} />}
        {children}
      </Stack>
    </Form>
  )
}

export function EmailField({
  field,
  onChange,
}: {
  field: Parameters<typeof fieldProps>[0]
  onChange: (event: ChangeEvent<HTMLInputElement>) => void
}) {
  return (
    <TextInput
      label="Email"
      {...fieldProps(field)}
      type="email"
      autoComplete="email"
      required
      onChange={onChange}
    />
  )
}
