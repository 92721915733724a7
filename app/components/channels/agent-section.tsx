import {
  Alert,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core'
import { IconRobot } from '@tabler/icons-react'
import { useNavigation } from '@remix-run/react'
import { useState, type FormEvent } from 'react'
import { PendingButton } from '~/components/forms/pending-button'
import type { ChannelDetailsContext } from './channel-details-context'
import { CHANNEL_UI_TEXTS } from './texts'
import { channelPath } from './paths'
import type { AgentOption } from './types'

const STATUS_SUFFIX: Record<AgentOption['status'], string> = {
  active: '',
  inactive: ' (inactive)',
  archived: ' (archived)',
}

function CurrentlyAssigned({ agent, enabled }: { agent: AgentOption; enabled: boolean }) {
  return (
    <Paper withBorder p="sm" bg="gray.0" aria-label="Currently Assigned" component="section">
      <Text size="xs" c="gray.7" fw={600} tt="uppercase">
        Currently Assigned
      </Text>
      <Group justify="space-between" wrap="nowrap" mt={4}>
        <Group gap="xs" wrap="nowrap" miw={0}>
          <IconRobot size={18} aria-hidden />
          <Text fw={600} truncate="end">
            {agent.name}
          </Text>
        </Group>
        <Badge color={enabled ? 'green' : 'gray'} variant="light" radius="sm">
          {enabled ? 'Active' : 'Disabled'}
        </Badge>
      </Group>
    </Paper>
  )
}

/**
 * The AI Agent section: the enabled switch (only while an agent is assigned), the Select Agent dropdown of the
 * organization's active agents, Assign or Remove, and the "Currently Assigned" panel.
 */
export function AgentSection({
  context,
  agents,
  assignedAgent,
}: {
  context: ChannelDetailsContext
  /** The active agents, the dropdown's choices. */
  agents: AgentOption[]
  /** The channel's agent, which may no longer be active. */
  assignedAgent: AgentOption | null
}) {
  const { channel, hydrated, fetcher, FormComponent, response, pending, submitting, submittingTo } = context
  const navigation = useNavigation()
  // The dialog's agents are being loaded again (coming back to the details from the delete confirmation).
  const loadingAgents =
    navigation.state === 'loading' && navigation.location.pathname === channelPath(channel.id)
  const assigned = channel.agentId

  // Preselects the assigned agent on open, and follows the assignment when it changes.
  const [chosen, setChosen] = useState(assigned)
  const [seenAssigned, setSeenAssigned] = useState(assigned)
  if (assigned !== seenAssigned) {
    setSeenAssigned(assigned)
    setChosen(assigned)
  }
  const [localError, setLocalError] = useState<string | null>(null)

  const paths = {
    assign: channelPath(channel.id, 'assign'),
    unassign: channelPath(channel.id, 'unassign'),
    toggle: channelPath(channel.id, 'agent-enabled'),
  }
  const enabled =
    submittingTo === paths.toggle ? submitting?.get('agentEnabled') === 'true' : channel.agentEnabled
  const answer = response?.section === 'agent' && !pending ? response : undefined
  const error = localError ?? answer?.error ?? null
  const success = localError ? null : (answer?.message ?? null)
  const note = localError ? null : (answer?.note ?? null)
  const warning = localError ? null : (answer?.warning ?? null)

  const options = agents.map((agent) => ({ value: agent.id, label: agent.name }))
  if (assignedAgent && !agents.some((agent) => agent.id === assignedAgent.id)) {
    // Assigned while active: still shown as the selection, not offered to others.
    const label = `${assignedAgent.name}${STATUS_SUFFIX[assignedAgent.status]}`
    options.unshift({ value: assignedAgent.id, label })
  }
  const descriptions = new Map(agents.map((agent) => [agent.id, agent.description]))
  const noAgents = agents.length === 0 ? CHANNEL_UI_TEXTS.noActiveAgents : undefined

  const showAssign = assigned === null || chosen !== assigned
  const showRemove = assigned !== null && chosen === assigned

  // Remove is offered only for the chosen agent, so an empty choice can only be an Assign.
  const checkChoice = (event: FormEvent<HTMLFormElement>) => {
    if (!hydrated) return
    if (chosen) {
      setLocalError(null)
      return
    }
    event.preventDefault()
    setLocalError(CHANNEL_UI_TEXTS.selectAgent)
  }

  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        AI Agent
      </Title>
      {assigned !== null ? (
        hydrated ? (
          <Switch
            checked={enabled}
            onChange={(event) => {
              setLocalError(null)
              fetcher.submit(
                { agentId: assigned, agentEnabled: String(event.currentTarget.checked) },
                { method: 'post', action: paths.toggle },
              )
            }}
            disabled={pending}
            label="Agent Enabled"
            description="Reply automatically to messages on this channel"
            size="md"
          />
        ) : (
          <FormComponent method="post" action={paths.toggle} aria-label="Agent Enabled">
            <input type="hidden" name="agentId" value={assigned} />
            <input type="hidden" name="agentEnabled" value={String(!enabled)} />
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" fw={500}>
                Agent Enabled: {enabled ? 'On' : 'Off'}
              </Text>
              <Button type="submit" variant="default" size="xs">
                {enabled ? 'Disable agent' : 'Enable agent'}
              </Button>
            </Group>
          </FormComponent>
        )
      ) : null}

      <FormComponent method="post" action={paths.assign} aria-label="Assign Agent" onSubmit={checkChoice}>
        <input type="hidden" name="agentEnabled" value={String(channel.agentEnabled)} />
        <Stack gap="sm">
          {hydrated ? (
            <Select
              label="Select Agent"
              name="agentId"
              placeholder={loadingAgents ? CHANNEL_UI_TEXTS.loadingAgents : CHANNEL_UI_TEXTS.chooseAgent}
              data={options}
              value={chosen}
              onChange={(value) => {
                setChosen(value)
                setLocalError(null)
              }}
              renderOption={({ option }) => (
                <Stack gap={0}>
                  <Text size="sm">{option.label}</Text>
                  {descriptions.get(option.value) ? (
                    <Text size="xs" c="gray.7" lineClamp={2}>
                      {descriptions.get(option.value)}
                    </Text>
                  ) : null}
                </Stack>
              )}
              nothingFoundMessage={CHANNEL_UI_TEXTS.noActiveAgents}
              description={noAgents}
              disabled={loadingAgents || pending}
              error={localError ? true : undefined}
              checkIconPosition="right"
              allowDeselect={false}
            />
          ) : (
            <NativeSelect
              label="Select Agent"
              name="agentId"
              defaultValue={assigned ?? ''}
              description={noAgents}
              data={[{ value: '', label: CHANNEL_UI_TEXTS.chooseAgent }, ...options]}
            />
          )}
          {error ? (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          ) : null}
          {success || note ? (
            <Alert color="green" variant="light" role="status">
              {success}
              {success && note ? <br /> : null}
              {note}
            </Alert>
          ) : null}
          {warning ? (
            <Alert color="yellow" variant="light" role="alert">
              {warning}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            {showAssign || !hydrated ? (
              <PendingButton
                pending={pending && submittingTo === paths.assign}
                pendingLabel="Assigning..."
                disabled={pending}
              >
                Assign
              </PendingButton>
            ) : null}
            {assigned !== null && (showRemove || !hydrated) ? (
              <PendingButton
                formAction={paths.unassign}
                pending={pending && submittingTo === paths.unassign}
                pendingLabel="Removing..."
                disabled={pending}
                variant="light"
                color="red.7"
              >
                Remove
              </PendingButton>
            ) : null}
          </Group>
          {assignedAgent ? <CurrentlyAssigned agent={assignedAgent} enabled={enabled} /> : null}
        </Stack>
      </FormComponent>
    </Stack>
  )
}
