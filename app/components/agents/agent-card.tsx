import { ActionIcon, Button, Card, Group, Menu, Stack, Text } from '@mantine/core'
import { IconDots, IconEye, IconFlask, IconPencil, IconTrash } from '@tabler/icons-react'
import { Link } from '@remix-run/react'
import { useId } from 'react'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { creativityPercent } from '~/lib/agents/schemas'
import { MODEL_SHORT_LABELS, StatusDot } from './agent-status'
import classes from './agents.module.css'
import { agentPath } from './paths'
import type { AgentItem } from './types'

function AgentActions({ agent }: { agent: AgentItem }) {
  const hydrated = useHydrated()
  if (!hydrated) {
    return (
      <details className={classes.noScriptMenu}>
        <summary aria-label="Agent actions">
          <IconDots size={16} aria-hidden />
        </summary>
        <ul className={classes.noScriptMenuList}>
          <li>
            <Link to={agentPath(agent.id, 'edit')} preventScrollReset>
              Edit
            </Link>
          </li>
          <li>
            <Link to={agentPath(agent.id, 'delete')} preventScrollReset>
              Delete
            </Link>
          </li>
        </ul>
      </details>
    )
  }
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label="Agent actions">
          <IconDots size={16} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item
          component={Link}
          to={agentPath(agent.id, 'edit')}
          preventScrollReset
          leftSection={<IconPencil size={14} aria-hidden />}
        >
          Edit
        </Menu.Item>
        <Menu.Item
          component={Link}
          to={agentPath(agent.id, 'delete')}
          preventScrollReset
          color="red"
          leftSection={<IconTrash size={14} aria-hidden />}
        >
          Delete
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  )
}

export function AgentCard({ agent }: { agent: AgentItem }) {
  const nameId = useId()
  return (
    <Card component="article" withBorder padding="md" className={classes.card} aria-labelledby={nameId}>
      <Group justify="space-between" wrap="nowrap">
        <StatusDot status={agent.status} />
        <AgentActions agent={agent} />
      </Group>
      <div className={classes.cardBody}>
        <Text id={nameId} component="h2" fw={600} size="lg" truncate="end" title={agent.name}>
          {agent.name}
        </Text>
        {agent.description ? (
          <Text size="sm" c="gray.7" lineClamp={2}>
            {agent.description}
          </Text>
        ) : (
          <Text size="sm" c="gray.7" fs="italic">
            No description
          </Text>
        )}
      </div>
      <Group gap="xl">
        <Stack gap={0}>
          <Text size="xs" c="gray.7">
            Model
          </Text>
          <Text size="sm" fw={500}>
            {MODEL_SHORT_LABELS[agent.modelType]}
          </Text>
        </Stack>
        <Stack gap={0}>
          <Text size="xs" c="gray.7">
            Creativity
          </Text>
          <Text size="sm" fw={500}>
            {creativityPercent(agent.creativityLevel)}
          </Text>
        </Stack>
      </Group>
      <Group gap="xs" grow>
        <Button
          component={Link}
          to={agentPath(agent.id)}
          preventScrollReset
          variant="default"
          size="xs"
          leftSection={<IconEye size={14} aria-hidden />}
          aria-label={`View ${agent.name}`}
        >
          View
        </Button>
        <Button
          component={Link}
          to={agentPath(agent.id, 'test')}
          preventScrollReset
          variant="light"
          size="xs"
          leftSection={<IconFlask size={14} aria-hidden />}
          aria-label={`Test ${agent.name}`}
        >
          Test
        </Button>
      </Group>
    </Card>
  )
}
