import { Anchor, Paper, Title } from '@mantine/core'
import type { CSSProperties } from 'react'
import { Link } from '@remix-run/react'
import { DateTime } from '~/components/date-time'
import { HealthActionButton } from '~/components/channels/health-action'
import { PlatformIcon } from '~/components/channels/platform'
import { channelPath } from '~/components/channels/paths'
import { HEALTH_TEXTS, type ChannelHealth } from '~/lib/channels/health'
import classes from './dashboard.module.css'

// A coloured dot beside the status in words (dark text: the colour only repeats what the words say).
const STATUS = {
  ok: { label: HEALTH_TEXTS.healthy, color: 'var(--mantine-color-green-7)' },
  attention: { label: HEALTH_TEXTS.needsAttention, color: 'var(--mantine-color-orange-7)' },
  unknown: { label: HEALTH_TEXTS.unknown, color: 'var(--mantine-color-gray-5)' },
} as const

/**
 * The dashboard's health panel (issue #19, docs/decisions/046): every channel of the organization with its health,
 * those that need attention first (across the panel, each reason with the action that fixes it), the others in
 * columns. Nothing while there is no channel.
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
      <ul className={classes.healthList}>
        {ordered.map((channel) => {
          const status = STATUS[channel.status]
          return (
            <li
              key={channel.channelId}
              data-testid="dashboard-channel-health"
              className={channel.status === 'attention' ? classes.healthNeedsAttention : undefined}
            >
              <div className={classes.healthRow}>
                <div className={classes.healthName}>
                  <PlatformIcon platform={channel.platform} size={28} />
                  <div className={classes.healthNameText}>
                    <Anchor component={Link} to={channelPath(channel.channelId)} fw={500} truncate>
                      {channel.name}
                    </Anchor>
                    <span className={classes.healthChecked}>
                      {HEALTH_TEXTS.lastChecked}:{' '}
                      {channel.checkedAt ? <DateTime value={channel.checkedAt} /> : HEALTH_TEXTS.never}
                    </span>
                  </div>
                </div>
                <span className={classes.healthStatus}>
                  <span
                    className={classes.healthDot}
                    style={{ '--dot-color': status.color } as CSSProperties}
                    aria-hidden
                  />
                  {status.label}
                </span>
              </div>
              {channel.reasons.map((reason) => (
                <div key={reason.code} className={classes.healthReason}>
                  <span>{reason.message}</span>
                  <HealthActionButton action={reason.action} />
                </div>
              ))}
            </li>
          )
        })}
      </ul>
    </Paper>
  )
}
