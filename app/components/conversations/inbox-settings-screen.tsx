import { Alert, Anchor, NativeSelect, Stack, Text } from '@mantine/core'
import { Form, Link, useNavigation } from '@remix-run/react'
import { PendingButton } from '~/components/forms/pending-button'
import { PageHeader } from '~/components/layout/page-header'
import { SettingsSection } from '~/components/layout/settings-section'
import { AUTO_RESOLVE_CHOICES, MEDIA_RETENTION_CHOICES } from '~/lib/organizations/schemas'
import { SAVED_REPLIES_PATH } from './paths'
import { CONVERSATION_UI_TEXTS as T } from './texts'

export type InboxSettingsAnswer = {
  section: 'ai-resolution' | 'files'
  error: string | null
  notice: string | null
}

/** The choices, with the organization's own period among them when the API set one the list does not have. */
function periodOptions(choices: [number, string][], current: number, unit: string) {
  const all = choices.some(([value]) => value === current)
    ? choices
    : [...choices, [current, `${current} ${unit}`] as [number, string]].sort((a, b) => a[0] - b[0])
  return all.map(([value, label]) => ({ value: String(value), label }))
}

/** One setting: a select that an owner saves on its own (a plain form: it works with no script). */
function PeriodForm({
  id,
  title,
  hint,
  name,
  label,
  value,
  options,
  isOwner,
  answer,
}: {
  id: InboxSettingsAnswer['section']
  title: string
  hint: string
  name: string
  label: string
  value: number
  options: { value: string; label: string }[]
  isOwner: boolean
  answer?: InboxSettingsAnswer
}) {
  const navigation = useNavigation()
  const mine = answer?.section === id ? answer : undefined
  const submitting = navigation.state === 'submitting' && navigation.formData?.has(name)
  return (
    <Form method="post">
      <SettingsSection id={id} title={title} hint={hint}>
        <NativeSelect
          name={name}
          label={label}
          defaultValue={String(value)}
          data={options}
          disabled={!isOwner}
          description={isOwner ? undefined : T.ownerOnly}
          style={{ maxWidth: '16rem' }}
        />
        {mine?.error ? (
          <Alert color="red" variant="light" role="alert">
            {mine.error}
          </Alert>
        ) : mine?.notice ? (
          <Text size="sm" c="green.8" role="status">
            {mine.notice}
          </Text>
        ) : null}
        {isOwner ? (
          <PendingButton pending={Boolean(submitting)} pendingLabel={T.saving} w="fit-content">
            {T.save}
          </PendingButton>
        ) : null}
      </SettingsSection>
    </Form>
  )
}

/**
 * Inbox settings (/inbox-settings, docs/decisions/063): when the AI resolves the conversations it answered alone,
 * which the owner sets; and the way to the saved replies. A plain form: it works with no script.
 */
export function InboxSettingsScreen({
  autoResolveHours,
  mediaRetentionDays,
  isOwner,
  answer,
}: {
  autoResolveHours: number
  mediaRetentionDays: number
  isOwner: boolean
  answer?: InboxSettingsAnswer
}) {
  return (
    <>
      <PageHeader title={T.inboxSettings} subtitle={T.inboxSettingsSubtitle} />
      <Stack gap="md" maw="44rem">
        <PeriodForm
          id="ai-resolution"
          title={T.aiResolution}
          hint={T.aiResolutionHint}
          name="autoResolveHours"
          label={T.aiResolutionPeriod}
          value={autoResolveHours}
          options={periodOptions(AUTO_RESOLVE_CHOICES, autoResolveHours, 'hours')}
          isOwner={isOwner}
          answer={answer}
        />
        <PeriodForm
          id="files"
          title={T.customerFiles}
          hint={T.customerFilesHint}
          name="mediaRetentionDays"
          label={T.customerFilesPeriod}
          value={mediaRetentionDays}
          options={periodOptions(MEDIA_RETENTION_CHOICES, mediaRetentionDays, 'days')}
          isOwner={isOwner}
          answer={answer}
        />
        <SettingsSection id="saved-replies" title={T.savedReplies} hint={T.savedRepliesSubtitle}>
          <Anchor component={Link} to={SAVED_REPLIES_PATH} size="sm">
            {T.manageSavedRepliesLink}
          </Anchor>
        </SettingsSection>
      </Stack>
    </>
  )
}
