import {
  ActionIcon,
  Alert,
  Button,
  CopyButton,
  Group,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core'
import { IconCheck, IconCopy } from '@tabler/icons-react'
import { SUBSCRIBABLE_PLATFORMS } from '~/lib/channels/channels'
import type { ChannelDetailsContext } from './channel-details-context'
import { CHANNEL_UI_TEXTS } from './texts'
import { channelPath } from './paths'

/** The "Webhook Subscription" switch; without JavaScript, a button that posts the other position. */
export function WebhookSection({ context }: { context: ChannelDetailsContext }) {
  const { channel, hydrated, fetcher, FormComponent, response, pending, submitting, submittingTo } = context
  const action = channelPath(channel.id, 'webhook')
  const sending = submittingTo === action
  const subscribed = sending ? submitting?.get('subscribed') === 'true' : channel.webhookSubscribed
  const supported = SUBSCRIBABLE_PLATFORMS.has(channel.platformName)
  const failed = response?.section === 'webhook' && !pending ? response.error : null

  return (
    <Stack gap="xs">
      {hydrated ? (
        <Switch
          checked={subscribed}
          onChange={(event) =>
            fetcher.submit({ subscribed: String(event.currentTarget.checked) }, { method: 'post', action })
          }
          disabled={pending || !supported}
          label={CHANNEL_UI_TEXTS.webhookLabel}
          description={CHANNEL_UI_TEXTS.webhookDescription}
          size="md"
        />
      ) : (
        <FormComponent method="post" action={action} aria-label={CHANNEL_UI_TEXTS.webhookLabel}>
          <input type="hidden" name="subscribed" value={String(!subscribed)} />
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <div>
              <Text size="sm" fw={500}>
                {CHANNEL_UI_TEXTS.webhookLabel}: {subscribed ? 'On' : 'Off'}
              </Text>
              <Text size="xs" c="gray.7">
                {CHANNEL_UI_TEXTS.webhookDescription}
              </Text>
            </div>
            <Button type="submit" variant="default" size="xs" disabled={!supported}>
              {subscribed ? 'Unsubscribe' : 'Subscribe'}
            </Button>
          </Group>
        </FormComponent>
      )}
      {supported ? (
        <Text size="xs" c="gray.7">
          {subscribed ? CHANNEL_UI_TEXTS.receivingOn : CHANNEL_UI_TEXTS.receivingOff}
          {subscribed && channel.polled ? ` ${CHANNEL_UI_TEXTS.pollingNote}` : null}
        </Text>
      ) : null}
      {failed ? (
        <Alert color="red" variant="light" role="alert">
          {failed}
        </Alert>
      ) : null}
      {channel.webhookSubscribed && channel.webhookUrl ? (
        <TextInput
          label="Webhook URL"
          value={channel.webhookUrl}
          readOnly
          size="sm"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          rightSection={
            hydrated ? (
              <CopyButton value={channel.webhookUrl}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
                    <ActionIcon
                      variant="subtle"
                      color={copied ? 'teal' : 'gray'}
                      onClick={copy}
                      aria-label="Copy webhook URL"
                    >
                      {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            ) : null
          }
        />
      ) : null}
    </Stack>
  )
}
