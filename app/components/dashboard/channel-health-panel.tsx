import { Anchor, Box, Button, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { Link } from '@remix-run/react'
import { DateTime } from '~/components/date-time'
import { PlatformIcon } from '~/components/channels/platform'
import { channelPath } from '~/components/channels/paths'
import { HEALTH_TEXTS, type ChannelHealth } from '~/lib/channel-health'

// A coloured dot beside the status in words (dark text: the colour only repeats what the words say).
const STATUS = {
  ok: { label: HEALTH_TEXTS.healthy, color: 'green.7' },
  attention: { label: HEALTH_TEXTS.needsAttention, color: 'orange.7' },
  unknown: { label: HEALTH_TEXTS.unknown, color: 'gray.5' },
} as const

/**
 * The dashboard's health panel (issue #19, docs/decisions/046): every channel of the organization with its health,
 * those that need attention first, each reason with the action that fixes it. Nothing while there is no channel.
 */
export function ChannelHealthPanel({ channels }: { channels: ChannelHealth[] }) {
  if (channels.length === 0) return null
  const ordered = [...channels].sort(
    (a, b) => Number(b.status === 'attention') - Number(a.status === 'attention'),
  )
  return (
    <Paper withBorder p="md" radius="md" mb="lg" component="section" aria-labelledby="channel-health-title">
      <Title order={2} size="h4" id="channel-health-title" mb="sm">
        Channel health
      </Title>
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {ordered.map((channel) => {
          const status = STATUS[channel.status]
          return (
            <li key={channel.channelId} data-testid="dashboard-channel-health">
              <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
                <Group gap="sm" wrap="nowrap" miw={0}>
                  <PlatformIcon platform={channel.platform} size={28} />
                  <Stack gap={0} miw={0}>
                    <Anchor component={Link} to={channelPath(channel.channelId)} fw={500} truncate>
                      {channel.name}
                    </Anchor>
                    <Text size="xs" c="gray.7">
                      {HEALTH_TEXTS.lastChecked}:{' '}
                      {channel.checkedAt ? <DateTime value={channel.checkedAt} /> : HEALTH_TEXTS.never}
                    </Text>
                  </Stack>
                </Group>
                <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
                  <Box w={8} h={8} bg={status.color} style={{ borderRadius: '50%' }} aria-hidden />
                  <Text size="sm" fw={500}>
                    {status.label}
                  </Text>
                </Group>
              </Group>
              {channel.reasons.map((reason) => (
                <Group key={reason.code} gap="xs" mt={6} ml={40} wrap="wrap">
                  <Text size="sm">{reason.message}</Text>
                  <Button
                    component={Link}
                    to={reason.action.href}
                    size="compact-sm"
                    variant="light"
                    color="orange.9"
                  >
                    {reason.action.label}
                  </Button>
                </Group>
              ))}
            </li>
          )
        })}
      </Stack>
    </Paper>
  )
}
