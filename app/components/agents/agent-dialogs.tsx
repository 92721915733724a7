import { Alert, CloseButton, Group, Modal, Paper, Title } from '@mantine/core'
import { Link, useFetchers, useLocation, useNavigate, useNavigation } from '@remix-run/react'
import { useId, useState } from 'react'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { AgentDeletePanel } from './agent-delete-panel'
import { AgentDetails } from './agent-details'
import { AgentFormPanel } from './agent-form-panel'
import { AgentTestPanel } from './agent-test-panel'
import {
  AGENTS_PATH,
  dialogKey,
  parseAgentDialog,
  type AgentDialog,
  type AgentDialogKind,
} from './dialog-url'
import type { AgentActionResponse, AgentItem } from './types'
import { ignoreInterruption } from '~/lib/navigation'

const TITLES: Record<AgentDialogKind, string> = {
  create: 'Create New Agent',
  edit: 'Edit Agent',
  view: 'Agent Details',
  test: 'Test Agent',
  delete: 'Delete Agent',
}

const AGENT_INTENTS = new Set(['create', 'update', 'delete', 'test'])

function DialogContent({
  dialog,
  agents,
  noScriptData,
}: {
  dialog: AgentDialog
  agents: AgentItem[]
  noScriptData: AgentActionResponse | undefined
}) {
  if (dialog.kind === 'create') return <AgentFormPanel noScriptData={noScriptData} />
  const agent = agents.find((a) => a.id === dialog.agentId)
  if (!agent) {
    return (
      <Alert color="red" variant="light" role="alert">
        Agent not found
      </Alert>
    )
  }
  switch (dialog.kind) {
    case 'edit':
      return <AgentFormPanel agent={agent} noScriptData={noScriptData} />
    case 'view':
      return <AgentDetails agent={agent} />
    case 'test':
      return <AgentTestPanel agent={agent} noScriptData={noScriptData} />
    case 'delete':
      return <AgentDeletePanel agent={agent} noScriptData={noScriptData} />
  }
}

/**
 * The Agents screen's dialogs, opened by the URL. Once hydrated they are modals (opened as soon as a link is
 * followed, before the navigation settles); without JavaScript the same content is part of the page.
 */
export function AgentDialogs({
  agents,
  noScriptData,
}: {
  agents: AgentItem[]
  noScriptData: AgentActionResponse | undefined
}) {
  const hydrated = useHydrated()
  const titleId = useId()
  const location = useLocation()
  const navigation = useNavigation()
  const navigate = useNavigate()
  const busy = useFetchers().some(
    (f) => f.state === 'submitting' && AGENT_INTENTS.has(String(f.formData?.get('intent'))),
  )

  const target = navigation.location?.pathname === AGENTS_PATH ? navigation.location : location
  const dialog = parseAgentDialog(target.search)
  // The last dialog stays rendered while the modal animates closed.
  const [shown, setShown] = useState(dialog)
  if (dialog && (!shown || dialogKey(dialog) !== dialogKey(shown))) setShown(dialog)

  if (!hydrated) {
    if (!dialog) return null
    return (
      <Paper component="section" withBorder shadow="sm" p="lg" mb="lg" aria-labelledby={titleId}>
        <Group justify="space-between" mb="md" wrap="nowrap">
          <Title order={2} size="h3" id={titleId}>
            {TITLES[dialog.kind]}
          </Title>
          <CloseButton component={Link} to={AGENTS_PATH} aria-label="Close" />
        </Group>
        <DialogContent dialog={dialog} agents={agents} noScriptData={noScriptData} />
      </Paper>
    )
  }

  const close = () => {
    if (!busy) ignoreInterruption(navigate(AGENTS_PATH, { preventScrollReset: true }))
  }
  return (
    <Modal
      opened={dialog !== null}
      onClose={close}
      title={shown ? TITLES[shown.kind] : ''}
      size={shown?.kind === 'delete' ? 'md' : 'lg'}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      centered
    >
      {shown ? (
        <DialogContent key={dialogKey(shown)} dialog={shown} agents={agents} noScriptData={noScriptData} />
      ) : null}
    </Modal>
  )
}
