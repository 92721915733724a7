import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { IconFlask, IconPencil } from '@tabler/icons-react'
import { Link } from '@remix-run/react'
import { MODEL_TYPE_LABELS, creativityLabel, creativityPercent } from '~/lib/agent-schemas'
import { StatusBadge } from './agent-status'
import classes from './agents.module.css'
import { DateTime } from '~/components/date-time'
import { agentPath } from './paths'
import type { AgentItem } from './types'

const orDefault = (value: number | null) => (value === null ? 'Provider default' : String(value))

/** The content of the agent details dialog (View). */
export function AgentDetails({ agent }: { agent: AgentItem }) {
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Title order={3} size="h4" style={{ overflowWrap: 'anywhere' }}>
          {agent.name}
        </Title>
        <StatusBadge status={agent.status} />
      </Group>
      <dl className={classes.facts}>
        <dt>Readable ID</dt>
        <dd>
          <Text span ff="monospace" size="sm">
            {agent.readableId}
          </Text>
        </dd>
        <dt>Description</dt>
        <dd>{agent.description || 'No description'}</dd>
        <dt>Model Type</dt>
        <dd>{MODEL_TYPE_LABELS[agent.modelType]}</dd>
        <dt>Creativity</dt>
        <dd>
          {creativityPercent(agent.creativityLevel)} ({creativityLabel(agent.creativityLevel)})
        </dd>
        <dt>Max Tokens</dt>
        <dd>{orDefault(agent.maxTokens)}</dd>
        <dt>Top P</dt>
        <dd>{orDefault(agent.topP)}</dd>
        <dt>Top K</dt>
        <dd>{orDefault(agent.topK)}</dd>
        <dt>Created By</dt>
        <dd>{agent.createdBy ?? 'Unknown'}</dd>
        <dt>Created</dt>
        <dd>
          <DateTime value={agent.createdAt} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <DateTime value={agent.updatedAt} />
        </dd>
      </dl>
      <div>
        <Text size="sm" c="gray.7" mb={4}>
          System Prompt
        </Text>
        <Paper withBorder p="sm" bg="gray.0">
          <Text className={classes.preformatted}>{agent.systemPrompt}</Text>
        </Paper>
      </div>
      <Group justify="flex-end">
        <Button
          component={Link}
          to={agentPath(agent.id, 'test')}
          preventScrollReset
          variant="default"
          leftSection={<IconFlask size={16} aria-hidden />}
        >
          Test Agent
        </Button>
        <Button
          component={Link}
          to={agentPath(agent.id, 'edit')}
          preventScrollReset
          leftSection={<IconPencil size={16} aria-hidden />}
        >
          Edit Agent
        </Button>
      </Group>
    </Stack>
  )
}
