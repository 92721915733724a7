import { Alert, Anchor, Group, NativeSelect, NumberInput, Stack, Text, Title } from '@mantine/core'
import { IconInbox } from '@tabler/icons-react'
import { Link } from '@remix-run/react'
import { PendingButton } from '~/components/forms/pending-button'
import { MAX_AUTO_RESUME_MINUTES } from '~/lib/conversations/conversations'
import type { ChannelDetailsContext } from './channel-details-context'
import { channelPath } from './paths'

/**
 * The channel's conversations: a link to them in the inbox, the hand-back to the AI after a person's reply
 * (docs/decisions/036), and who gets those that need a person (docs/decisions/057).
 */
export function ConversationsSection({ context }: { context: ChannelDetailsContext }) {
  const { channel, hydrated, FormComponent, response, pending, submittingTo } = context
  // With JavaScript these save as the switches above do, when changed (issue 34: one way of saving); without it,
  // the Save button posts the form.
  const save = (form: HTMLFormElement | null | undefined) => form?.requestSubmit()
  const action = channelPath(channel.id, 'hand-back')
  const answer = response?.section === 'conversations' && !pending ? response : undefined
  return (
    <Stack gap="xs" component="section" aria-labelledby="channel-conversations-title">
      <Group justify="space-between">
        <Title order={3} size="h5" id="channel-conversations-title">
          Conversations
        </Title>
        <Anchor component={Link} to={`/conversations?channelId=${channel.id}`} size="sm">
          <Group gap={4}>
            <IconInbox size={16} aria-hidden />
            View this channel&apos;s conversations
          </Group>
        </Anchor>
      </Group>
      <FormComponent method="post" action={action}>
        <Stack gap="xs">
          <NumberInput
            name="autoResumeMinutes"
            label="Hand back to the AI after (minutes)"
            description="Minutes without a person's reply; 0 keeps the AI paused until someone resumes it."
            defaultValue={channel.autoResumeMinutes}
            min={0}
            max={MAX_AUTO_RESUME_MINUTES}
            allowDecimal={false}
            allowNegative={false}
            onBlur={(event) => {
              if (hydrated && event.currentTarget.value !== String(channel.autoResumeMinutes)) {
                save(event.currentTarget.form)
              }
            }}
            onKeyDown={(event) => {
              if (hydrated && event.key === 'Enter') {
                event.preventDefault()
                save(event.currentTarget.form)
              }
            }}
          />
          {channel.members ? (
            <NativeSelect
              name="defaultAssigneeUid"
              label="When a person is needed, assign to"
              description="A handoff or a failed reply goes to them; with nobody, it waits unassigned."
              defaultValue={channel.defaultAssigneeUid ?? ''}
              data={[
                { value: '', label: 'Nobody' },
                ...channel.members.map((m) => ({ value: m.uid, label: m.me ? `${m.name} (you)` : m.name })),
              ]}
              onChange={(event) => hydrated && save(event.currentTarget.form)}
            />
          ) : null}
          {hydrated ? (
            pending && submittingTo === action ? (
              <Text size="sm" c="gray.7" role="status">
                Saving...
              </Text>
            ) : null
          ) : (
            <PendingButton
              pending={pending && submittingTo === action}
              pendingLabel="Saving..."
              variant="default"
              style={{ alignSelf: 'flex-start' }}
            >
              Save
            </PendingButton>
          )}
        </Stack>
      </FormComponent>
      {answer?.error ? (
        <Alert color="red" variant="light" role="alert">
          {answer.error}
        </Alert>
      ) : answer?.message ? (
        <Text size="sm" c="green.8" role="status">
          {answer.message}
        </Text>
      ) : null}
    </Stack>
  )
}
