import {
  Alert,
  Center,
  CloseButton,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  ThemeIcon,
  VisuallyHidden,
} from '@mantine/core'
import { IconAlertCircle, IconBuilding, IconPlugConnected } from '@tabler/icons-react'
import { Link, useLocation, useNavigation } from '@remix-run/react'
import { useState } from 'react'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { PageHeader } from '~/components/layout/page-header'
import type { MetaClientConfig } from '~/lib/facebook'
import { AddChannelMenu } from './add-channel-menu'
import { ChannelCard } from './channel-card'
import { ChannelDialogs } from './channel-dialogs'
import classes from './channels.module.css'
import { CHANNELS_PATH, isDialogChange } from './dialog-url'
import { CHANNEL_UI_MESSAGES } from './messages'
import type { AgentOption, ChannelActionResponse, ChannelItem } from './types'
import { useMetaConnect, type MetaConnect } from './use-meta-connect'

/** The dismissible "Connection Error" banner; without JavaScript, dismissing reloads the page without it. */
function ConnectionErrorBanner({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  const hydrated = useHydrated()
  const location = useLocation()
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      mb="lg"
      title={CHANNEL_UI_MESSAGES.connectionErrorTitle}
      icon={<IconAlertCircle aria-hidden />}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm">{message}</Text>
        {hydrated ? (
          <CloseButton onClick={onDismiss} aria-label="Dismiss connection error" />
        ) : (
          <CloseButton
            component={Link}
            to={`${location.pathname}${location.search}`}
            aria-label="Dismiss connection error"
          />
        )}
      </Group>
    </Alert>
  )
}

function EmptyState({ meta }: { meta: MetaConnect }) {
  return (
    <Paper withBorder p="xl">
      <Stack align="center" gap="xs">
        <ThemeIcon size={48} radius="xl" variant="light">
          <IconPlugConnected size={28} aria-hidden />
        </ThemeIcon>
        <Text fw={600} size="lg">
          {CHANNEL_UI_MESSAGES.emptyTitle}
        </Text>
        <Text c="gray.7">{CHANNEL_UI_MESSAGES.emptyHint}</Text>
        <Stack mt="sm">
          <AddChannelMenu centered meta={meta} />
        </Stack>
      </Stack>
    </Paper>
  )
}

const CONNECTING_ANNOUNCEMENTS = {
  facebook: `Facebook Page: ${CHANNEL_UI_MESSAGES.connecting}`,
  whatsapp: `WhatsApp Business Account: ${CHANNEL_UI_MESSAGES.connecting}`,
}

/** A connect that failed for a reason other than the token's value (that one is shown on the field). */
function connectError(response: ChannelActionResponse | undefined) {
  return response?.intent === 'connect-telegram' ? response.error : null
}

/** The Channels page (/channels): the grid of connected channels, the Add Channel menu and the dialogs. */
export function ChannelsScreen({
  channels,
  agents,
  otherAgents,
  hasOrganization,
  meta,
  noScriptData,
}: {
  channels: ChannelItem[]
  agents: AgentOption[]
  otherAgents: AgentOption[]
  hasOrganization: boolean
  meta: MetaClientConfig
  noScriptData: ChannelActionResponse | undefined
}) {
  const location = useLocation()
  const navigation = useNavigation()
  const [banner, setBanner] = useState(() => connectError(noScriptData))
  const metaConnect = useMetaConnect({ meta, channels, onConnectError: setBanner })
  // A reload of the list (not a dialog opening or closing, which only changes the URL's dialog part).
  const loading =
    navigation.state === 'loading' &&
    navigation.location.pathname === CHANNELS_PATH &&
    !isDialogChange(location, navigation.location)

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
    content = (
      <Paper withBorder p="xl">
        <Stack align="center" gap="xs">
          <ThemeIcon size={48} radius="xl" variant="light" color="gray">
            <IconBuilding size={28} aria-hidden />
          </ThemeIcon>
          <Text fw={600} size="lg">
            {CHANNEL_UI_MESSAGES.noOrganization}
          </Text>
          <Text c="gray.7">Create or choose an organization to manage its channels.</Text>
        </Stack>
      </Paper>
    )
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
        subtitle={CHANNEL_UI_MESSAGES.subtitle}
        actions={hasOrganization && channels.length > 0 ? <AddChannelMenu meta={metaConnect} /> : null}
      />
      <VisuallyHidden role="status" aria-live="polite">
        {metaConnect.busy ? CONNECTING_ANNOUNCEMENTS[metaConnect.busy] : ''}
      </VisuallyHidden>
      {banner ? <ConnectionErrorBanner message={banner} onDismiss={() => setBanner(null)} /> : null}
      {hasOrganization ? (
        <ChannelDialogs
          channels={channels}
          agents={agents}
          otherAgents={otherAgents}
          noScriptData={noScriptData}
          onConnectError={setBanner}
        />
      ) : null}
      {content}
    </>
  )
}
