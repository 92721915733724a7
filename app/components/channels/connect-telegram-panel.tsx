import { useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Anchor, Button, Group, Paper, PasswordInput, Stack, Text, TextInput } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { Link, useNavigate } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { FormError } from '~/components/auth/form-error'
import { PendingButton } from '~/components/forms/pending-button'
import type { DialogSubmission } from '~/components/hooks/use-dialog-fetcher'
import { ConnectionErrorBanner } from './connection-error-banner'
import classes from './channels.module.css'
import { CHANNEL_UI_TEXTS } from './texts'
import { CHANNELS_PATH } from './paths'
import { connectTelegramSchema } from '~/lib/channels/schemas'
import { ignoreInterruption } from '~/lib/shared/navigation'

const TOKEN_PLACEHOLDER = '123456789:ABCdefGhIJKlmNoPQRsTUVwxyZ1234567890'

function HelpSteps() {
  return (
    <Paper withBorder p="sm" bg="gray.0">
      <Text size="sm" fw={600} mb={4}>
        How to get a bot token
      </Text>
      <ol className={classes.steps}>
        <li>
          Open Telegram and talk to{' '}
          <Anchor href="https://t.me/BotFather" target="_blank" rel="noreferrer" size="sm">
            @BotFather
          </Anchor>
          .
        </li>
        <li>
          Send <code>/newbot</code> and follow the instructions to name your bot.
        </li>
        <li>Copy the token BotFather gives you and paste it below.</li>
      </ol>
    </Paper>
  )
}

/**
 * The content of the Connect Telegram Bot dialog. The token is checked here and again by the action with the same
 * schema; the action then asks Telegram who the bot is. A failure that is not about the token's value also goes
 * to the page's Connection Error banner (`onConnectError`).
 */
export function ConnectTelegramPanel({
  submission,
  onConnectError,
}: {
  /** The form's result and the connected channel, or the reason it was not, when not the token's value. */
  submission: DialogSubmission<{
    result: SubmissionResult<string[]>
    connected: { name: string } | null
    error: string | null
  }>
  onConnectError: (message: string | null) => void
}) {
  const navigate = useNavigate()
  const { hydrated, FormComponent, response: answer, settled: done, pending } = submission
  const [token, setToken] = useState('')
  const [visible, setVisible] = useState(false)

  const [form, fields] = useForm({
    id: 'connect-telegram',
    lastResult: answer?.result,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: connectTelegramSchema }),
  })

  useEffect(() => {
    if (!done) return
    if (done.connected) {
      notifications.show({ color: 'green', message: CHANNEL_UI_TEXTS.connected(done.connected.name) })
      onConnectError(null)
      ignoreInterruption(navigate(CHANNELS_PATH, { preventScrollReset: true }))
    } else if (done.error) {
      onConnectError(done.error)
    }
  }, [done, navigate, onConnectError])

  const field = {
    id: fields.botToken.id,
    name: fields.botToken.name,
    label: 'Bot Token',
    placeholder: TOKEN_PLACEHOLDER,
    description: 'A bot id, a colon, then 35 letters, digits, underscores or hyphens',
    required: true,
    autoComplete: 'off',
    spellCheck: false,
    'data-autofocus': true,
    error: fields.botToken.errors?.[0],
    disabled: pending,
  }
  return (
    <FormComponent
      method="post"
      id={form.id}
      onSubmit={form.onSubmit}
      noValidate={hydrated}
      aria-label="Connect Telegram Bot"
    >
      <Stack gap="md">
        {/* Once hydrated the page's banner says it (onConnectError); without JavaScript, the dialog's section. */}
        {!hydrated && answer?.error ? <ConnectionErrorBanner message={answer.error} /> : null}
        <FormError message={form.errors?.[0]} />
        {hydrated ? null : <input type="hidden" name="noscript" value="true" />}
        <HelpSteps />
        {hydrated ? (
          <PasswordInput
            key={fields.botToken.key}
            {...field}
            onChange={(event) => setToken(event.currentTarget.value)}
            visible={visible}
            onVisibilityChange={setVisible}
            visibilityToggleButtonProps={{
              'aria-label': visible ? 'Hide bot token' : 'Show bot token',
              tabIndex: 0,
            }}
          />
        ) : (
          // The show/hide toggle needs JavaScript; the token is typed in hidden.
          <TextInput type="password" {...field} />
        )}
        <Group justify="flex-end">
          {pending ? (
            <Button variant="default" disabled>
              Cancel
            </Button>
          ) : (
            <Button variant="default" component={Link} to={CHANNELS_PATH} preventScrollReset>
              Cancel
            </Button>
          )}
          <PendingButton
            pending={pending}
            pendingLabel="Connecting..."
            // Only once hydrated: without JavaScript nothing would enable it again.
            disabled={hydrated && token.trim() === ''}
          >
            Connect Bot
          </PendingButton>
        </Group>
      </Stack>
    </FormComponent>
  )
}
