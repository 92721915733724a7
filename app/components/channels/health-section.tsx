import { Alert, Button, Group, List, Stack, Text } from '@mantine/core'
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react'
import { DateTime } from '~/components/date-time'
import { HEALTH_TEXTS, type ChannelHealth } from '~/lib/channels/health'
import type { ChannelDetailsContext } from './channel-details-context'
import { HealthActionButton } from './health-action'
import { channelPath } from './paths'

/**
 * Channel Details' health (docs/decisions/046): what needs attention, each reason with the action that fixes it,
 * when the platform was last asked, and "Check now" (a plain form: it works without JavaScript too).
 */
export function HealthSection({
  context,
  health,
}: {
  context: ChannelDetailsContext
  health: ChannelHealth
}) {
  const { channel, FormComponent, response, pending, submittingTo } = context
  const action = channelPath(channel.id, 'check')
  const checking = submittingTo === action
  const answer = response?.section === 'health' && !pending ? response : null
  return (
    <Stack gap="xs" data-testid="channel-health">
      {health.status === 'attention' ? (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle size={18} aria-hidden />}
          title={HEALTH_TEXTS.needsAttention}
        >
          <List spacing="xs" size="sm">
            {health.reasons.map((reason) => (
              <List.Item key={reason.code}>
                <Text size="sm">{reason.message}</Text>
                <HealthActionButton action={reason.action} mt={4} />
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : (
        <Text size="sm" fw={500}>
          Health: {health.status === 'ok' ? HEALTH_TEXTS.healthy : HEALTH_TEXTS.unknown}
        </Text>
      )}
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text size="xs" c="gray.7">
          {HEALTH_TEXTS.lastChecked}:{' '}
          {health.checkedAt ? <DateTime value={health.checkedAt} /> : HEALTH_TEXTS.never}
        </Text>
        <FormComponent method="post" action={action}>
          <Button
            type="submit"
            variant="default"
            size="xs"
            loading={checking}
            leftSection={<IconRefresh size={14} aria-hidden />}
          >
            {checking ? HEALTH_TEXTS.checking : HEALTH_TEXTS.checkNow}
          </Button>
        </FormComponent>
      </Group>
      {answer?.error ? (
        <Alert color="red" variant="light" role="alert">
          {answer.error}
        </Alert>
      ) : answer?.message ? (
        <Text size="xs" c="green.9" role="status">
          {answer.message}
        </Text>
      ) : null}
    </Stack>
  )
}
