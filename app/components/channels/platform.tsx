import { Badge, Group, Text, ThemeIcon } from '@mantine/core'
import {
  IconBrandFacebook,
  IconBrandInstagram,
  IconBrandTelegram,
  IconBrandTiktok,
  IconBrandWhatsapp,
} from '@tabler/icons-react'
import type { ChannelView } from '~/lib/channels/channels'
import classes from './channels.module.css'

type Platform = ChannelView['platformName']
type ChannelType = ChannelView['channelType']
type ChannelStatus = ChannelView['status']

export { PLATFORM_LABELS } from '~/lib/channels/channels'

export const CHANNEL_TYPE_LABELS: Record<ChannelType, string> = {
  facebook_page: 'Facebook Page',
  telegram_bot: 'Telegram Bot',
  whatsapp_number: 'WhatsApp Number',
  instagram_account: 'Instagram Account',
  tiktok_account: 'TikTok Account',
}

const STATUS_LABELS: Record<ChannelStatus, string> = {
  active: 'Active',
  error: 'Error',
  pending: 'Pending',
  disconnected: 'Disconnected',
}

/** Green for active, red for error, grey otherwise (spec section 2, "Channel Details dialog"). */
const statusColor = (status: ChannelStatus) =>
  status === 'active' ? 'green' : status === 'error' ? 'red' : 'gray'

const PLATFORM_ICONS = {
  facebook: { Icon: IconBrandFacebook, color: 'blue' },
  telegram: { Icon: IconBrandTelegram, color: 'cyan' },
  instagram: { Icon: IconBrandInstagram, color: 'pink' },
  whatsapp: { Icon: IconBrandWhatsapp, color: 'teal' },
  tiktok: { Icon: IconBrandTiktok, color: 'dark' },
} satisfies Record<Platform, unknown>

export function PlatformIcon({ platform, size = 40 }: { platform: Platform; size?: number }) {
  const { Icon, color } = PLATFORM_ICONS[platform]
  return (
    <ThemeIcon size={size} radius="md" variant="light" color={color}>
      <Icon size={Math.round(size * 0.6)} aria-hidden />
    </ThemeIcon>
  )
}

/** A coloured dot with the status in words: the colour only repeats what the text says. */
export function ChannelStatusDot({ status }: { status: ChannelStatus }) {
  return (
    <Group gap={6} wrap="nowrap">
      <span
        className={classes.dot}
        style={{ background: `var(--mantine-color-${statusColor(status)}-7)` }}
        aria-hidden
      />
      <Text size="sm" c="gray.8">
        {STATUS_LABELS[status]}
      </Text>
    </Group>
  )
}

export function ChannelStatusBadge({ status }: { status: ChannelStatus }) {
  return (
    <Badge color={statusColor(status)} variant="light" radius="sm">
      {STATUS_LABELS[status]}
    </Badge>
  )
}
