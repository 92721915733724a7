import { Button, Group, Stack, Text } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { Link, useNavigate } from '@remix-run/react'
import { useEffect } from 'react'
import { FormError } from '~/components/auth/form-error'
import { PendingButton } from '~/components/forms/pending-button'
import type { DialogSubmission } from '~/components/hooks/use-dialog-fetcher'
import { AGENT_TEXTS } from './texts'
import { AGENTS_PATH } from './paths'
import type { AgentItem } from './types'
import { ignoreInterruption } from '~/lib/shared/navigation'

/** The content of the Delete Agent dialog: deleting archives the agent. */
export function AgentDeletePanel({
  agent,
  submission,
}: {
  agent: Pick<AgentItem, 'name'>
  /** The archived agent, or why it was not. */
  submission: DialogSubmission<{ deleted: { id: string } | null; error: string | null }>
}) {
  const navigate = useNavigate()
  const { hydrated, FormComponent, response, settled: done, pending } = submission

  useEffect(() => {
    if (!done) return
    if (done.deleted) {
      notifications.show({ color: 'green', message: AGENT_TEXTS.deleted })
      ignoreInterruption(navigate(AGENTS_PATH, { preventScrollReset: true }))
    } else {
      notifications.show({ color: 'red', message: AGENT_TEXTS.deleteFailed })
    }
  }, [done, navigate])

  const failed = response?.error
  return (
    <FormComponent method="post" aria-label="Delete Agent">
      <Stack gap="md">
        <FormError message={failed ? AGENT_TEXTS.deleteFailed : undefined} />
        <Text>
          Are you sure you want to delete{' '}
          <Text span fw={700}>
            {agent.name}
          </Text>
          ? This action cannot be undone. The agent will be archived and will no longer be available.
        </Text>
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
