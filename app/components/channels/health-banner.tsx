import { Alert, Anchor, List, Text } from '@mantine/core'
import { IconAlertTriangle } from '@tabler/icons-react'
import { Link } from '@remix-run/react'
import { HEALTH_TEXTS, type ChannelHealth } from '~/lib/channels/health'
import { channelPath } from '~/lib/channels/paths'

/** What the app shell's banner needs of a channel that needs attention. */
export type AttentionChannel = Pick<ChannelHealth, 'channelId' | 'name'> & { reason: string }

/**
 * The app shell's banner while any channel of the organization needs attention (docs/decisions/046): each channel
 * with its first reason, linking to its Channel Details. A polite status, not an alert: it stays on every page
 * and would otherwise interrupt the screen reader at each navigation. Plain links: it works without JavaScript.
 */
export function ChannelHealthBanner({ channels }: { channels: AttentionChannel[] }) {
  if (channels.length === 0) return null
  return (
    <Alert
      role="status"
      aria-live="polite"
      color="orange"
      variant="light"
      radius={0}
      icon={<IconAlertTriangle size={18} aria-hidden />}
      title={HEALTH_TEXTS.banner(channels.length)}
      data-testid="channel-health-banner"
    >
      <List size="sm" spacing={2}>
        {channels.map((channel) => (
          <List.Item key={channel.channelId}>
            {/* The whole line is the link: its name is never the channel's name alone (the card's link has that). */}
            <Anchor component={Link} to={channelPath(channel.channelId)} c="orange.9" size="sm">
              <Text span fw={600} size="sm">
                {channel.name}
              </Text>
              {`: ${channel.reason}`}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </Alert>
  )
}
