import { Alert, Button, Menu, Text } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { IconMailForward } from '@tabler/icons-react'
import { Form, useFetcher } from '@remix-run/react'
import { useEffect } from 'react'
import {
  awaitingEmailText,
  awaitingEmailTitle,
  confirmationSentText,
  type AwaitingEmail,
} from '~/lib/organizations/schemas'

/** What /organization answers to "Send again". */
export type ConfirmationResult = { confirmationSentTo?: string | null; confirmationError?: string | null }

export const CONFIRM_EMAIL_INTENT = 'confirm-email'

/** "Send again" from the switcher: the answer is told in a toast. */
function useSendAgain() {
  const fetcher = useFetcher<ConfirmationResult>()
  const result = fetcher.state === 'idle' ? fetcher.data : undefined
  useEffect(() => {
    if (!result) return
    if (result.confirmationError) notifications.show({ color: 'red', message: result.confirmationError })
    else if (result.confirmationSentTo)
      notifications.show({ color: 'green', message: confirmationSentText(result.confirmationSentTo) })
  }, [result])
  return {
    sending: fetcher.state !== 'idle',
    send: () => fetcher.submit({ intent: CONFIRM_EMAIL_INTENT }, { method: 'post', action: '/organization' }),
  }
}

/** In the switcher's menu: why invitations wait, and the menu item that sends the link again. */
export function EmailConfirmationMenuNotice({ awaitingEmail }: { awaitingEmail: AwaitingEmail }) {
  const { send, sending } = useSendAgain()
  return (
    <>
      <Text size="sm" fw={600} px="sm" pt={4}>
        {awaitingEmailTitle}
      </Text>
      <Text size="xs" c="gray.7" px="sm" pb={4}>
        {awaitingEmailText(awaitingEmail)}
      </Text>
      <Menu.Item
        leftSection={<IconMailForward size={14} aria-hidden />}
        color="indigo"
        closeMenuOnClick={false}
        disabled={sending}
        onClick={send}
      >
        Send again
      </Menu.Item>
    </>
  )
}

/** On /organization: the same, as a plain form that works without JavaScript. */
export function EmailConfirmationNotice({
  awaitingEmail,
  result,
}: {
  awaitingEmail: AwaitingEmail
  result: ConfirmationResult | undefined
}) {
  return (
    <Alert color="indigo" title={awaitingEmailTitle} mb="md">
      <Text size="sm">{awaitingEmailText(awaitingEmail)}</Text>
      {result?.confirmationSentTo ? (
        <Text size="sm" mt="xs" role="status">
          {confirmationSentText(result.confirmationSentTo)}
        </Text>
      ) : null}
      {result?.confirmationError ? (
        <Text size="sm" mt="xs" c="red.8" role="alert">
          {result.confirmationError}
        </Text>
      ) : null}
      <Form method="post" action="/organization">
        <Button
          type="submit"
          name="intent"
          value={CONFIRM_EMAIL_INTENT}
          size="xs"
          variant="default"
          mt="sm"
          leftSection={<IconMailForward size={14} aria-hidden />}
        >
          Send again
        </Button>
      </Form>
    </Alert>
  )
}
