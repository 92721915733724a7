import { Alert, Anchor, Stack, Text, Textarea } from '@mantine/core'
import { Form, Link, useNavigation } from '@remix-run/react'
import { PendingButton } from '~/components/forms/pending-button'
import { PageHeader } from '~/components/layout/page-header'
import { SettingsSection } from '~/components/layout/settings-section'
import { CUSTOMER_WORDS_TEXTS as T, wordGroupsText } from '~/lib/knowledge/customer-words'
import { KNOWLEDGE_PATH } from './paths'

/** What a post answers: `words` is the box as typed when it was refused for what it holds (its error under it). */
export type CustomerWordsAnswer = { error: string | null; notice: string | null; words?: string }

/**
 * Settings › Knowledge (/settings/knowledge, docs/decisions/073): the organization's "words your customers use", one
 * group a line. A plain form: it works with no script, and a refused post keeps what was typed.
 */
export function CustomerWordsScreen({
  groups,
  answer,
}: {
  groups: string[][]
  answer?: CustomerWordsAnswer
}) {
  const navigation = useNavigation()
  return (
    <>
      <PageHeader title="Knowledge settings" subtitle="How customers' questions find your knowledge" />
      <Stack gap="md" maw="44rem">
        <Form method="post">
          <SettingsSection id="customer-words" title={T.title} hint={T.description}>
            <Stack gap="sm">
              <Textarea
                key={answer?.words === undefined ? wordGroupsText(groups) : 'typed'}
                name="words"
                label={T.label}
                placeholder={T.placeholder}
                defaultValue={answer?.words ?? wordGroupsText(groups)}
                autosize
                minRows={5}
                maxRows={20}
                error={answer?.words !== undefined ? answer.error : undefined}
              />
              {groups.length === 0 && !answer ? (
                <Text size="sm" c="gray.7">
                  {T.empty}
                </Text>
              ) : null}
              {answer?.notice ? (
                <Text size="sm" c="green.8" role="status">
                  {answer.notice}
                </Text>
              ) : null}
              {answer?.error && answer.words === undefined ? (
                <Alert color="red" variant="light" role="alert">
                  {answer.error}
                </Alert>
              ) : null}
              <PendingButton
                pending={navigation.state === 'submitting'}
                pendingLabel="Saving…"
                w="fit-content"
              >
                {T.save}
              </PendingButton>
            </Stack>
          </SettingsSection>
        </Form>
        <Anchor component={Link} to={KNOWLEDGE_PATH} size="sm">
          Back to Knowledge
        </Anchor>
      </Stack>
    </>
  )
}
