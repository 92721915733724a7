import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  NativeSelect,
  Paper,
  Select,
  Stack,
  Text,
  ThemeIcon,
} from '@mantine/core'
import { IconAlertCircle, IconPlus, IconRobot } from '@tabler/icons-react'
import { Form, Link, useLocation, useNavigation, useSearchParams } from '@remix-run/react'
import { useState } from 'react'
import { RouteDialog } from '~/components/dialogs/route-dialog'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { PageHeader } from '~/components/layout/page-header'
import { AGENT_STATUS_VALUES, type AgentStatus } from '~/lib/agents/schemas'
import { AgentCard } from './agent-card'
import { STATUS_LABELS } from './agent-status'
import classes from './agents.module.css'
import { AGENT_TEXTS } from './texts'
import { AGENTS_PATH, NEW_AGENT_PATH } from './paths'
import type { AgentItem } from './types'
import { NoOrganization } from '~/components/organizations/no-organization'

type StatusFilter = 'all' | AgentStatus

const FILTER_OPTIONS = [
  { value: 'all', label: 'All Status' },
  ...AGENT_STATUS_VALUES.map((value) => ({ value, label: STATUS_LABELS[value] })),
]

const parseFilter = (value: string | null): StatusFilter =>
  AGENT_STATUS_VALUES.find((status) => status === value) ?? 'all'

/** The status filter: on the loaded list in the browser; without JavaScript, a GET form that does the same. */
function StatusFilterField({
  value,
  onChange,
}: {
  value: StatusFilter
  onChange: (value: StatusFilter) => void
}) {
  const hydrated = useHydrated()
  if (hydrated) {
    return (
      <Select
        aria-label="Filter by status"
        data={FILTER_OPTIONS}
        value={value}
        onChange={(next) => onChange(parseFilter(next))}
        allowDeselect={false}
        checkIconPosition="right"
        w={160}
      />
    )
  }
  return (
    <Form method="get" action={AGENTS_PATH}>
      <Group gap="xs" wrap="nowrap">
        <NativeSelect
          aria-label="Filter by status"
          name="status"
          defaultValue={value}
          data={FILTER_OPTIONS}
          w={160}
        />
        <Button type="submit" variant="default">
          Filter
        </Button>
      </Group>
    </Form>
  )
}

function EmptyState({ filter }: { filter: StatusFilter }) {
  return (
    <Paper withBorder p="xl">
      <Stack align="center" gap="xs">
        <ThemeIcon size={48} radius="xl" variant="light">
          <IconRobot size={28} aria-hidden />
        </ThemeIcon>
        <Text fw={600} size="lg">
          {filter === 'all' ? 'No agents found' : `No ${filter} agents`}
        </Text>
        <Text c="gray.7">Create your first agent to get started</Text>
        <Button
          component={Link}
          to={NEW_AGENT_PATH}
          preventScrollReset
          mt="sm"
          leftSection={<IconPlus size={16} aria-hidden />}
        >
          Create Agent
        </Button>
      </Stack>
    </Paper>
  )
}

/**
 * The Agents page (/agents): list and filter; the dialogs that create, show, test, edit and delete agents are the
 * child routes (_app.agents.new, _app.agents.$agentId...), in a RouteDialog.
 */
export function AgentsScreen({
  agents,
  hasOrganization,
  loadError,
}: {
  agents: AgentItem[]
  hasOrganization: boolean
  loadError: string | null
}) {
  const [searchParams] = useSearchParams()
  const [filter, setFilter] = useState(() => parseFilter(searchParams.get('status')))
  const location = useLocation()
  const navigation = useNavigation()
  // A reload of the list from the list (a dialog opening or closing leaves the list's data as it is).
  const loading =
    navigation.state === 'loading' &&
    navigation.location.pathname === AGENTS_PATH &&
    location.pathname === AGENTS_PATH

  const visible = filter === 'all' ? agents : agents.filter((agent) => agent.status === filter)

  let content
  if (loading) {
    content = (
      <Center py="xl" role="status" aria-live="polite">
        <Group gap="sm">
          <Loader size="md" />
          <Text c="gray.7">Loading agents...</Text>
        </Group>
      </Center>
    )
  } else if (loadError !== null) {
    content = (
      <Alert
        color="red"
        variant="light"
        title={AGENT_TEXTS.loadErrorTitle}
        icon={<IconAlertCircle aria-hidden />}
      >
        {loadError || AGENT_TEXTS.loadFailed}
      </Alert>
    )
  } else if (!hasOrganization) {
    content = <NoOrganization hint="Create or choose an organization to manage its agents." />
  } else if (visible.length === 0) {
    content = <EmptyState filter={filter} />
  } else {
    content = (
      <div className={classes.grid}>
        {visible.map((agent) => (
          <AgentCard key={agent.id} agent={agent} />
        ))}
      </div>
    )
  }

  return (
    <>
      <PageHeader
        title="Agents"
        subtitle="Manage your AI agents for automated replies"
        actions={
          hasOrganization ? (
            <Group gap="sm">
              <StatusFilterField value={filter} onChange={setFilter} />
              <Button
                component={Link}
                to={NEW_AGENT_PATH}
                preventScrollReset
                leftSection={<IconPlus size={16} aria-hidden />}
              >
                Create Agent
              </Button>
            </Group>
          ) : null
        }
      />
      {hasOrganization ? <RouteDialog listPath={AGENTS_PATH} /> : null}
      {content}
    </>
  )
}
