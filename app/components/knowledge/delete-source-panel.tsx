import { Button, Group, Stack, Text } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { Link, useNavigate } from '@remix-run/react'
import { useEffect } from 'react'
import { FormError } from '~/components/auth/form-error'
import { PendingButton } from '~/components/forms/pending-button'
import type { DialogSubmission } from '~/components/hooks/use-dialog-fetcher'
import { KNOWLEDGE_SOURCE_KIND_LABELS, type KnowledgeSourceKind } from '~/lib/knowledge/knowledge'
import { ignoreInterruption } from '~/lib/shared/navigation'
import { KNOWLEDGE_PATH } from './paths'
import { KNOWLEDGE_TEXTS as T } from './texts'

/** The content of the Delete Source dialog. */
export function DeleteSourcePanel({
  source,
  submission,
}: {
  source: { title: string; kind: KnowledgeSourceKind }
  /** The deleted source, or why it was not. */
  submission: DialogSubmission<{ deleted: { id: string } | null; error: string | null }>
}) {
  const navigate = useNavigate()
  const { hydrated, FormComponent, response, settled: done, pending } = submission

  useEffect(() => {
    if (!done) return
    if (done.deleted) {
      notifications.show({ color: 'green', message: T.deleted })
      ignoreInterruption(navigate(KNOWLEDGE_PATH, { preventScrollReset: true }))
    } else {
      notifications.show({ color: 'red', message: T.deleteFailed })
    }
  }, [done, navigate])

  return (
    <FormComponent method="post" aria-label="Delete source">
      <Stack gap="md">
        <FormError message={response?.error ? T.deleteFailed : undefined} />
        <Text>
          Are you sure you want to delete the {KNOWLEDGE_SOURCE_KIND_LABELS[source.kind].toLowerCase()}{' '}
          <Text span fw={700}>
            {source.title}
          </Text>
          ? This action cannot be undone. Its passages are removed and your agents no longer answer from it.
        </Text>
        {hydrated ? null : <input type="hidden" name="noscript" value="true" />}
        <Group justify="flex-end">
          {pending ? (
            <Button variant="default" disabled>
              Cancel
            </Button>
          ) : (
            <Button variant="default" component={Link} to={KNOWLEDGE_PATH} preventScrollReset data-autofocus>
              Cancel
            </Button>
          )}
          <PendingButton pending={pending} pendingLabel="Deleting..." color="red.7">
            Delete source
          </PendingButton>
        </Group>
      </Stack>
    </FormComponent>
  )
}

/** A dialog whose source is not there (deleted meanwhile, or another organization's). */
export function SourceNotFound() {
  return (
    <Stack gap="md">
      <Text>{T.notFound}</Text>
      <Group justify="flex-end">
        <Button variant="default" component={Link} to={KNOWLEDGE_PATH} preventScrollReset>
          Close
        </Button>
      </Group>
    </Stack>
  )
}
