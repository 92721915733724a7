import { Center, Group, Loader, Paper, Stack, Text, ThemeIcon, VisuallyHidden } from '@mantine/core'
import { IconPlugConnected } from '@tabler/icons-react'
import { useLocation, useNavigation } from '@remix-run/react'
import { useState } from 'react'
import { RouteDialog } from '~/components/dialogs/route-dialog'
import { PageHeader } from '~/components/layout/page-header'
import type { MetaClientConfig } from '~/lib/channels/facebook'
import { AddChannelMenu } from './add-channel-menu'
import { ChannelCard } from './channel-card'
import classes from './channels.module.css'
import { ConnectionErrorBanner } from './connection-error-banner'
import { CHANNEL_UI_TEXTS } from './texts'
import { CHANNELS_PATH } from './paths'
import type { ChannelItem } from './types'
import { useMetaConnect, type MetaConnect } from './use-meta-connect'
import { NoOrganization } from '~/components/organizations/no-organization'

function EmptyState({ meta }: { meta: MetaConnect }) {
  return (
    <Paper withBorder p="xl">
      <Stack align="center" gap="xs">
        <ThemeIcon size={48} radius="xl" variant="light">
          <IconPlugConnected size={28} aria-hidden />
        </ThemeIcon>
        <Text fw={600} size="lg">
          {CHANNEL_UI_TEXTS.emptyTitle}
        </Text>
        <Text c="gray.7">{CHANNEL_UI_TEXTS.emptyHint}</Text>
        <Stack mt="sm">
          <AddChannelMenu centered meta={meta} />
        </Stack>
      </Stack>
    </Paper>
  )
}

const CONNECTING_ANNOUNCEMENTS = {
  facebook: `Facebook Page: ${CHANNEL_UI_TEXTS.connecting}`,
  whatsapp: `WhatsApp Business Account: ${CHANNEL_UI_TEXTS.connecting}`,
}

/** What the Channels screen hands to its dialog routes (`useOutletContext`). */
export type ChannelsDialogContext = { onConnectError: (message: string | null) => void }

/**
 * The Channels page (/channels): the grid of connected channels, the Add Channel menu, and the dialog routes
 * (_app.channels.connect.telegram, _app.channels.$channelId...) in a RouteDialog.
 */
export function ChannelsScreen({
  channels,
  hasOrganization,
  meta,
}: {
  channels: ChannelItem[]
  hasOrganization: boolean
  meta: MetaClientConfig
}) {
  const location = useLocation()
  const navigation = useNavigation()
  const [banner, setBanner] = useState<string | null>(null)
  const metaConnect = useMetaConnect({ meta, channels, onConnectError: setBanner })
  const dialogContext: ChannelsDialogContext = { onConnectError: setBanner }
  // A reload of the list from the list (a dialog opening or closing leaves the list's data as it is).
  const loading =
    navigation.state === 'loading' &&
    navigation.location.pathname === CHANNELS_PATH &&
    location.pathname === CHANNELS_PATH

  let content
  if (loading) {
    content = (
      <Center py="xl" role="status" aria-live="polite">
        <Group gap="sm">
          <Loader size="md" />
          <Text c="gray.7">Loading channels...</Text>
        </Group>
      </Center>
    )
  } else if (!hasOrganization) {
    content = <NoOrganization hint="Create or choose an organization to manage its channels." />
  } else if (channels.length === 0) {
    content = <EmptyState meta={metaConnect} />
  } else {
    content = (
      <div className={classes.grid}>
        {channels.map((channel) => (
          <ChannelCard key={channel.id} channel={channel} />
        ))}
      </div>
    )
  }

  return (
    <>
      <PageHeader
        title="Channels"
        subtitle={CHANNEL_UI_TEXTS.subtitle}
        actions={hasOrganization && channels.length > 0 ? <AddChannelMenu meta={metaConnect} /> : null}
      />
      <VisuallyHidden role="status" aria-live="polite">
        {metaConnect.busy ? CONNECTING_ANNOUNCEMENTS[metaConnect.busy] : ''}
      </VisuallyHidden>
      {banner ? <ConnectionErrorBanner message={banner} onDismiss={() => setBanner(null)} /> : null}
      {hasOrganization ? <RouteDialog listPath={CHANNELS_PATH} context={dialogContext} /> : null}
      {content}
    </>
  )
}
