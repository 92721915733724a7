import { Alert, Anchor, NativeSelect, Stack, Text } from '@mantine/core'
import { Form, Link, useNavigation } from '@remix-run/react'
import { PendingButton } from '~/components/forms/pending-button'
import { PageHeader } from '~/components/layout/page-header'
import { SettingsSection } from '~/components/layout/settings-section'
import { AUTO_RESOLVE_CHOICES } from '~/lib/organizations/schemas'
import { SAVED_REPLIES_PATH } from './paths'
import { CONVERSATION_UI_TEXTS as T } from './texts'

export type InboxSettingsAnswer = { error: string | null; notice: string | null }

/** The choices, with the organization's own period among them when the API set one the list does not have. */
function periodOptions(current: number) {
  const choices = AUTO_RESOLVE_CHOICES.some(([hours]) => hours === current)
    ? AUTO_RESOLVE_CHOICES
    : [...AUTO_RESOLVE_CHOICES, [current, `${current} hours`] as [number, string]].sort((a, b) => a[0] - b[0])
  return choices.map(([hours, label]) => ({ value: String(hours), label }))
}

/**
 * Inbox settings (/inbox-settings, docs/decisions/063): when the AI resolves the conversations it answered alone,
 * which the owner sets; and the way to the saved replies. A plain form: it works with no script.
 */
export function InboxSettingsScreen({
  autoResolveHours,
  isOwner,
  answer,
}: {
  autoResolveHours: number
  isOwner: boolean
  answer?: InboxSettingsAnswer
}) {
  const navigation = useNavigation()
  return (
    <>
      <PageHeader title={T.inboxSettings} subtitle={T.inboxSettingsSubtitle} />
      <Stack gap="md" maw="44rem">
        <Form method="post">
          <SettingsSection id="ai-resolution" title={T.aiResolution} hint={T.aiResolutionHint}>
            <NativeSelect
              name="autoResolveHours"
              label={T.aiResolutionPeriod}
              defaultValue={String(autoResolveHours)}
              data={periodOptions(autoResolveHours)}
              disabled={!isOwner}
              description={isOwner ? undefined : T.ownerOnly}
              style={{ maxWidth: '16rem' }}
            />
            {answer?.error ? (
              <Alert color="red" variant="light" role="alert">
                {answer.error}
              </Alert>
            ) : answer?.notice ? (
              <Text size="sm" c="green.8" role="status">
                {answer.notice}
              </Text>
            ) : null}
            {isOwner ? (
              <PendingButton
                pending={navigation.state === 'submitting'}
                pendingLabel={T.saving}
                w="fit-content"
              >
                {T.save}
              </PendingButton>
            ) : null}
          </SettingsSection>
        </Form>
        <SettingsSection id="saved-replies" title={T.savedReplies} hint={T.savedRepliesSubtitle}>
          <Anchor component={Link} to={SAVED_REPLIES_PATH} size="sm">
            {T.manageSavedRepliesLink}
          </Anchor>
        </SettingsSection>
      </Stack>
    </>
  )
}
