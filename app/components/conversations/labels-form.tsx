import { Group, TextInput } from '@mantine/core'
import { IconTag } from '@tabler/icons-react'
import { useFetcher } from '@remix-run/react'
import { PendingButton } from '~/components/forms/pending-button'
import { FetcherSavedNotice } from '~/components/forms/saved-notice'
import type { ConversationDetail } from '~/lib/conversations/conversations'
import { conversationPath } from './paths'
import { CONVERSATION_UI_TEXTS as T } from './texts'

/** The labels, separated by commas, saved with a button (a plain form with no script); the refusal beside it. */
export function LabelsForm({ conversation }: { conversation: ConversationDetail }) {
  const fetcher = useFetcher<{ error?: string | null }>()
  const saved = conversation.labels.join(', ')
  return (
    // Keyed by the saved labels: a change elsewhere (another tab, the API) shows here too.
    <fetcher.Form method="post" action={`${conversationPath(conversation.id)}/labels`} key={saved}>
      <Group gap={6} wrap="nowrap" align="flex-start">
        <TextInput
          name="labels"
          aria-label={T.labels}
          placeholder={T.labelsPlaceholder}
          defaultValue={saved}
          size="xs"
          leftSection={<IconTag size={14} aria-hidden />}
          error={fetcher.data?.error ?? undefined}
          style={{ flex: 1, minWidth: 0 }}
        />
        <PendingButton pending={fetcher.state !== 'idle'} pendingLabel={T.saving} size="xs" variant="default">
          {T.saveLabels}
        </PendingButton>
      </Group>
      <FetcherSavedNotice fetcher={fetcher}>{T.labelsSaved}</FetcherSavedNotice>
    </fetcher.Form>
  )
}
