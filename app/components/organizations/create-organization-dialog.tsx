import { Alert, Modal } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { useFetcher } from '@remix-run/react'
import { useEffect, useId, useState } from 'react'
import type { InvitationToAnswer, OrganizationSummary } from '~/lib/organizations/schemas'
import type { SubmissionResult } from '@conform-to/react'
import { CreateOrganizationForm } from './create-organization-form'

type CreateResult = { result: SubmissionResult<string[]>; created: OrganizationSummary | null }

/** The Create Organization dialog: cannot close while its request runs; closing clears the name and the error. */
export function CreateOrganizationDialog({
  opened,
  onClose,
  invitations = [],
}: {
  opened: boolean
  onClose: () => void
  invitations?: InvitationToAnswer[]
}) {
  const base = useId()
  // A fresh fetcher per opening, so that an old error does not come back when the dialog opens again.
  const [round, setRound] = useState(0)
  const fetcher = useFetcher<CreateResult>({ key: `${base}-create-organization-${round}` })
  const busy = fetcher.state !== 'idle'

  const close = () => {
    if (busy) return
    setRound((r) => r + 1)
    onClose()
  }

  const created = fetcher.state === 'idle' ? fetcher.data?.created : null
  useEffect(() => {
    if (!created) return
    notifications.show({ color: 'green', message: `Organization "${created.name}" created` })
    setRound((r) => r + 1)
    onClose()
  }, [created, onClose])

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Create Organization"
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      centered
    >
      {invitations.length > 0 ? (
        // Someone invited this person: joining may be what they came for, so say where to answer.
        <Alert variant="light" color="indigo" mb="md">
          You have been invited to {invitations.map((i) => i.organizationName).join(', ')}. Cancel and open
          the organization switcher to accept or decline.
        </Alert>
      ) : null}
      <CreateOrganizationForm
        key={round}
        lastResult={fetcher.data?.result}
        pending={busy}
        onCancel={close}
        FormComponent={fetcher.Form}
      />
    </Modal>
  )
}
