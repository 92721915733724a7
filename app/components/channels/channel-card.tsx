import { Card, Stack, Text } from '@mantine/core'
import { Link } from '@remix-run/react'
import { useId } from 'react'
import { IconAlertTriangle } from '@tabler/icons-react'
import { HEALTH_TEXTS } from '~/lib/channels/health'
import { channelActivity, channelDisplayName, type ChannelActivity } from '~/lib/channels/channels'
import classes from './channels.module.css'
import { channelPath } from './paths'
import { CHANNEL_TYPE_LABELS, ChannelStatusDot, PlatformIcon } from './platform'
import type { ChannelItem } from './types'

const ACTIVITY_COLORS: Record<ChannelActivity['tone'], string> = {
  answering: 'green.9',
  idle: 'gray.7',
  paused: 'yellow.9',
  attention: 'red.8',
}

/** A 200x200 card; the whole card is the link that opens the Channel Details dialog. */
export function ChannelCard({ channel }: { channel: ChannelItem }) {
  const nameId = useId()
  const statusId = useId()
  const typeId = useId()
  const activityId = useId()
  const name = channelDisplayName(channel)
  const activity = channelActivity(channel, channel.agentName)
  return (
    <Card
      component={Link}
      to={channelPath(channel.id)}
      preventScrollReset
      withBorder
      padding="md"
      className={classes.card}
      aria-labelledby={nameId}
      aria-describedby={`${statusId} ${activityId} ${typeId}`}
    >
      <PlatformIcon platform={channel.platformName} />
      <Stack gap={4} className={classes.cardBody}>
        <Text id={nameId} fw={600} size="md" lineClamp={2} title={name} className={classes.cardName}>
          {name}
        </Text>
        <div id={statusId}>
          <ChannelStatusDot status={channel.status} />
          {channel.health?.status === 'attention' ? (
            <Text size="xs" fw={600} c="orange.9" className={classes.cardAttention}>
              <IconAlertTriangle size={12} aria-hidden /> {HEALTH_TEXTS.needsAttention}
            </Text>
          ) : null}
        </div>
        <Text
          id={activityId}
          size="xs"
          fw={500}
          c={ACTIVITY_COLORS[activity.tone]}
          lineClamp={2}
          style={{ flexShrink: 0 }}
        >
          {activity.text}
        </Text>
      </Stack>
      <Text id={typeId} size="xs" c="gray.7" tt="uppercase" fw={600} className={classes.cardType}>
        {CHANNEL_TYPE_LABELS[channel.channelType]}
      </Text>
    </Card>
  )
}
