import { Alert, Button, Divider, Group, Stack } from '@mantine/core'
import { IconTrash } from '@tabler/icons-react'
import { Link } from '@remix-run/react'
import { Fragment } from 'react'
import { channelDisplayName } from '~/lib/channels/channels'
import { AgentSection } from './agent-section'
import { ConversationsSection } from './conversations-section'
import classes from './channels.module.css'
import { useDialogFetcher } from '~/components/hooks/use-dialog-fetcher'
import { CHANNEL_UI_TEXTS } from './texts'
import { CHANNELS_PATH, channelPath } from './paths'
import { CHANNEL_TYPE_LABELS, ChannelStatusBadge, PLATFORM_LABELS } from './platform'
import type { AgentOption, ChannelItem } from './types'
import type { ChangeAnswer } from './channel-details-context'
import { WebhookSection } from './webhook-section'
import { HealthSection } from './health-section'

/** What identifies the account at its platform, beyond the name: a page's category, a number and its WABA. */
function platformFacts({ channelType, metadata }: ChannelItem): Array<[string, string]> {
  const facts: Array<[string, string | undefined]> =
    channelType === 'facebook_page'
      ? [['Category', metadata.category]]
      : channelType === 'whatsapp_number'
        ? [
            ['Phone Number', metadata.phoneNumber],
            ['WhatsApp Business Account', metadata.wabaName],
          ]
        : []
  return facts.flatMap(([label, value]) => (value ? [[label, value]] : []))
}

/**
 * The content of the Channel Details dialog. Every change (webhook, assignment, the agent switch) goes through one
 * fetcher, so that one change runs at a time and the latest answer is the one reported. Opening the dialog
 * mounts this afresh: no message from before, and the assigned agent preselected.
 */
export function ChannelDetailsPanel({
  channel,
  ...props
}: {
  channel: ChannelItem | null
  agents: AgentOption[]
  assignedAgent: AgentOption | null
  /** Without JavaScript, the answer of the change that rendered this page. */
  noScriptData?: ChangeAnswer
}) {
  if (!channel) {
    return (
      <Alert color="red" variant="light" role="alert">
        {CHANNEL_UI_TEXTS.notFound}
      </Alert>
    )
  }
  return <ChannelDetails channel={channel} {...props} />
}

function ChannelDetails({
  channel,
  agents,
  assignedAgent,
  noScriptData,
}: {
  channel: ChannelItem
  agents: AgentOption[]
  assignedAgent: AgentOption | null
  noScriptData?: ChangeAnswer
}) {
  const context = { ...useDialogFetcher<ChangeAnswer>(noScriptData), channel }
  return (
    <Stack gap="md">
      <dl className={classes.facts}>
        <dt>Channel Name</dt>
        <dd>
          <strong>{channelDisplayName(channel)}</strong>
        </dd>
        <dt>Platform</dt>
        <dd>{PLATFORM_LABELS[channel.platformName]}</dd>
        <dt>Type</dt>
        <dd>{CHANNEL_TYPE_LABELS[channel.channelType]}</dd>
        {platformFacts(channel).map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
        <dt>Status</dt>
        <dd>
          <ChannelStatusBadge status={channel.status} />
        </dd>
      </dl>
      {channel.health ? <HealthSection context={context} health={channel.health} /> : null}
      <Divider />
      <WebhookSection context={context} />
      <Divider />
      <AgentSection context={context} agents={agents} assignedAgent={assignedAgent} />
      <Divider />
      <ConversationsSection context={context} />
      <Divider />
      <Group justify="space-between">
        <Button
          component={Link}
          to={channelPath(channel.id, 'delete')}
          preventScrollReset
          variant="light"
          color="red.7"
          leftSection={<IconTrash size={16} aria-hidden />}
        >
          Delete Channel
        </Button>
        <Button component={Link} to={CHANNELS_PATH} preventScrollReset variant="default">
          Close
        </Button>
      </Group>
    </Stack>
  )
}
