import { Button, Group, Stack, Text } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { Link, useNavigate } from '@remix-run/react'
import { useEffect } from 'react'
import { FormError } from '~/components/auth/form-error'
import { PendingButton } from '~/components/forms/pending-button'
import { AGENTS_PATH } from './dialog-url'
import { AGENT_MESSAGES } from './messages'
import type { AgentActionResponse, AgentItem } from './types'
import { useAgentFetcher } from './use-agent-fetcher'
import { ignoreInterruption } from '~/lib/navigation'

const isDelete = (response: AgentActionResponse | undefined) =>
  response?.intent === 'delete' ? response : undefined

/** The content of the Delete Agent dialog: deleting archives the agent. */
export function AgentDeletePanel({
  agent,
  noScriptData,
}: {
  agent: AgentItem
  noScriptData: AgentActionResponse | undefined
}) {
  const navigate = useNavigate()
  const { hydrated, FormComponent, response, settled, pending } = useAgentFetcher(noScriptData)
  const done = isDelete(settled)

  useEffect(() => {
    if (!done) return
    if (done.deleted) {
      notifications.show({ color: 'green', message: AGENT_MESSAGES.deleted })
      ignoreInterruption(navigate(AGENTS_PATH, { preventScrollReset: true }))
    } else {
      notifications.show({ color: 'red', message: AGENT_MESSAGES.deleteFailed })
    }
  }, [done, navigate])

  const failed = isDelete(response)?.error
  return (
    <FormComponent method="post" aria-label="Delete Agent">
      <Stack gap="md">
        <FormError message={failed ? AGENT_MESSAGES.deleteFailed : undefined} />
        <Text>
          Are you sure you want to delete{' '}
          <Text span fw={700}>
            {agent.name}
          </Text>
          ? This action cannot be undone. The agent will be archived and will no longer be available.
        </Text>
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="agentId" value={agent.id} />
        {hydrated ? null : <input type="hidden" name="noscript" value="true" />}
        <Group justify="flex-end">
          {pending ? (
            <Button variant="default" disabled>
              Cancel
            </Button>
          ) : (
            <Button variant="default" component={Link} to={AGENTS_PATH} preventScrollReset>
              Cancel
            </Button>
          )}
          <PendingButton pending={pending} pendingLabel="Deleting..." color="red.7">
            Delete Agent
          </PendingButton>
        </Group>
      </Stack>
    </FormComponent>
  )
}
