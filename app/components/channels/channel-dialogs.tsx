import { Alert, CloseButton, Group, Modal, Paper, Title } from '@mantine/core'
import { Link, useFetchers, useLocation, useNavigate, useNavigation } from '@remix-run/react'
import { useId, useState } from 'react'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { ChannelDetailsPanel } from './channel-details-panel'
import { ConnectTelegramPanel } from './connect-telegram-panel'
import { DeleteChannelPanel } from './delete-channel-panel'
import {
  CHANNELS_PATH,
  dialogKey,
  parseChannelDialog,
  type ChannelDialog,
  type ChannelDialogKind,
} from './dialog-url'
import { CHANNEL_UI_MESSAGES } from './messages'
import type { AgentOption, ChannelActionResponse, ChannelItem } from './types'
import { ignoreInterruption } from '~/lib/navigation'

const TITLES: Record<ChannelDialogKind, string> = {
  'connect-telegram': 'Connect Telegram Bot',
  details: 'Channel Details',
  delete: 'Delete Channel',
}

const CHANNEL_INTENTS = new Set([
  'connect-telegram',
  'webhook',
  'assign',
  'remove-agent',
  'toggle-agent',
  'delete',
])

type DialogProps = {
  channels: ChannelItem[]
  agents: AgentOption[]
  /** Agents assigned to a channel that are no longer active (not in `agents`). */
  otherAgents: AgentOption[]
  noScriptData: ChannelActionResponse | undefined
  onConnectError: (message: string | null) => void
}

function DialogContent({
  dialog,
  channel,
  agents,
  otherAgents,
  noScriptData,
  onConnectError,
}: Omit<DialogProps, 'channels'> & { dialog: ChannelDialog; channel: ChannelItem | undefined }) {
  if (dialog.kind === 'connect-telegram') {
    return <ConnectTelegramPanel noScriptData={noScriptData} onConnectError={onConnectError} />
  }
  if (!channel) {
    return (
      <Alert color="red" variant="light" role="alert">
        {CHANNEL_UI_MESSAGES.notFound}
      </Alert>
    )
  }
  if (dialog.kind === 'delete') return <DeleteChannelPanel channel={channel} noScriptData={noScriptData} />
  const assignedAgent = [...agents, ...otherAgents].find((agent) => agent.id === channel.agentId)
  return (
    <ChannelDetailsPanel
      channel={channel}
      agents={agents}
      assignedAgent={assignedAgent}
      noScriptData={noScriptData}
    />
  )
}

/**
 * The Channels screen's dialogs, opened by the URL. Once hydrated they are modals (opened as soon as a link is
 * followed, before the navigation settles); without JavaScript the same content is part of the page.
 */
export function ChannelDialogs({ channels, ...props }: DialogProps) {
  const hydrated = useHydrated()
  const titleId = useId()
  const location = useLocation()
  const navigation = useNavigation()
  const navigate = useNavigate()
  const busy = useFetchers().some(
    (f) => f.state === 'submitting' && CHANNEL_INTENTS.has(String(f.formData?.get('intent'))),
  )

  const target = navigation.location?.pathname === CHANNELS_PATH ? navigation.location : location
  const dialog = parseChannelDialog(target.search)
  // The last dialog stays rendered while the modal animates closed.
  const [shown, setShown] = useState(dialog)
  if (dialog && (!shown || dialogKey(dialog) !== dialogKey(shown))) setShown(dialog)

  // A channel deleted from its dialog leaves the list at once; the dialog still shows it until it closes.
  const channelId = shown && shown.kind !== 'connect-telegram' ? shown.channelId : null
  const found = channels.find((channel) => channel.id === channelId)
  const [lastSeen, setLastSeen] = useState(found)
  const [wasOpen, setWasOpen] = useState(dialog !== null)
  if ((dialog !== null) !== wasOpen) {
    setWasOpen(dialog !== null)
    // Opening anew: no memory of a channel from an earlier dialog.
    if (dialog !== null && !found) setLastSeen(undefined)
  }
  if (found && found !== lastSeen) setLastSeen(found)
  const channel = found ?? (lastSeen?.id === channelId ? lastSeen : undefined)

  if (!hydrated) {
    if (!dialog) return null
    return (
      <Paper component="section" withBorder shadow="sm" p="lg" mb="lg" aria-labelledby={titleId}>
        <Group justify="space-between" mb="md" wrap="nowrap">
          <Title order={2} size="h3" id={titleId}>
            {TITLES[dialog.kind]}
          </Title>
          <CloseButton component={Link} to={CHANNELS_PATH} aria-label="Close" />
        </Group>
        <DialogContent dialog={dialog} channel={channel} {...props} />
      </Paper>
    )
  }

  const close = () => {
    if (!busy) ignoreInterruption(navigate(CHANNELS_PATH, { preventScrollReset: true }))
  }
  return (
    <Modal
      opened={dialog !== null}
      onClose={close}
      title={shown ? TITLES[shown.kind] : ''}
      size={shown?.kind === 'details' ? 'lg' : 'md'}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      centered
    >
      {shown ? <DialogContent key={dialogKey(shown)} dialog={shown} channel={channel} {...props} /> : null}
    </Modal>
  )
}
