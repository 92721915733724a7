import { Alert, Button, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core'
import { Form, useNavigation } from '@remix-run/react'
import { PendingButton } from '~/components/forms/pending-button'
import { PageHeader } from '~/components/layout/page-header'
import {
  FIRST_NAME_PLACEHOLDER,
  SAVED_REPLY_MAX_LENGTH,
  SAVED_REPLY_SHORTCUT_MAX,
  type SavedReplyItem,
} from '~/lib/conversations/saved-replies'
import { CONVERSATION_UI_TEXTS as T } from './texts'
import { NoOrganization } from '~/components/organizations/no-organization'

/** What the page's action answers: which form (a reply's id, or "new"), and why not or what was done. */
export type SavedReplyAnswer = { target: string; error: string | null; notice: string | null }

/** The two fields; the new reply's say what they take, each saved one's are shown plainly. */
function ReplyFields({ reply }: { reply?: SavedReplyItem }) {
  return (
    <>
      <TextInput
        name="shortcut"
        label={T.shortcut}
        description={reply ? undefined : T.shortcutHint}
        leftSection="/"
        defaultValue={reply?.shortcut}
        maxLength={SAVED_REPLY_SHORTCUT_MAX + 1}
        required
        style={{ maxWidth: '20rem' }}
      />
      <Textarea
        name="text"
        label={T.replyText}
        description={reply ? undefined : T.replyTextHint(FIRST_NAME_PLACEHOLDER)}
        defaultValue={reply?.text}
        autosize
        minRows={2}
        maxRows={10}
        maxLength={SAVED_REPLY_MAX_LENGTH}
        required
      />
    </>
  )
}

function Answer({ answer, target }: { answer?: SavedReplyAnswer; target: string }) {
  if (!answer || answer.target !== target) return null
  return answer.error ? (
    <Alert color="red" variant="light" role="alert">
      {answer.error}
    </Alert>
  ) : (
    <Text size="sm" c="green.8" role="status">
      {answer.notice}
    </Text>
  )
}

/**
 * Saved replies (/saved-replies): the organization's texts that members put in the composer by typing `/` and
 * a shortcut. A form to add one, and one form per reply to change or delete it; each works with no script.
 */
export function SavedRepliesScreen({
  hasOrganization,
  replies,
  answer,
}: {
  hasOrganization: boolean
  replies: SavedReplyItem[]
  answer?: SavedReplyAnswer
}) {
  const navigation = useNavigation()
  const busy = (intent: string, id = '') =>
    navigation.state === 'submitting' &&
    navigation.formData?.get('intent') === intent &&
    (navigation.formData?.get('id') ?? '') === id
  if (!hasOrganization) {
    return (
      <Stack>
        <PageHeader title={T.savedReplies} />
        <NoOrganization hint={T.noOrganizationHint} />
      </Stack>
    )
  }
  return (
    <Stack gap="lg" maw="48rem">
      <PageHeader title={T.savedReplies} subtitle={T.savedRepliesSubtitle} />
      <Paper withBorder p="md" component="section" aria-labelledby="new-saved-reply">
        {/* Keyed by the answer: a reply added clears the form; a refused one keeps what was typed. */}
        <Form method="post" key={answer?.target === 'new' && !answer.error ? answer.notice : 'new'}>
          <input type="hidden" name="intent" value="create" />
          <Stack gap="sm">
            <Title order={2} size="h4" id="new-saved-reply">
              {T.addSavedReply}
            </Title>
            <ReplyFields />
            <Answer answer={answer} target="new" />
            <Group>
              <PendingButton pending={busy('create')} pendingLabel={T.saving}>
                {T.addSavedReply}
              </PendingButton>
            </Group>
          </Stack>
        </Form>
      </Paper>
      {replies.length === 0 ? (
        <Text c="gray.7">{T.noSavedReplies}</Text>
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} aria-label={T.savedReplies} style={{ listStyle: 'none' }}>
          {replies.map((reply) => (
            <Paper key={reply.id} withBorder p="md" component="li">
              <Form method="post" aria-label={`/${reply.shortcut}`}>
                <input type="hidden" name="id" value={reply.id} />
                <Stack gap="sm">
                  <ReplyFields reply={reply} />
                  <Answer answer={answer} target={reply.id} />
                  <Group gap="xs">
                    <PendingButton
                      pending={busy('update', reply.id)}
                      pendingLabel={T.saving}
                      name="intent"
                      value="update"
                      variant="default"
                    >
                      {T.save}
                    </PendingButton>
                    <Button
                      type="submit"
                      name="intent"
                      value="delete"
                      variant="subtle"
                      color="red"
                      formNoValidate
                    >
                      {T.delete}
                    </Button>
                  </Group>
                </Stack>
              </Form>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  )
}
