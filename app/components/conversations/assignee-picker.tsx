import { Button, Group, NativeSelect, Text } from '@mantine/core'
import { useFetcher } from '@remix-run/react'
import type { ConversationDetail } from '~/lib/conversations/conversations'
import { ActionButton } from './action-button'
import { conversationPath } from './paths'
import { CONVERSATION_UI_TEXTS as T } from './texts'

import type { MemberOption } from '~/lib/organizations/schemas'

const memberLabel = (member: MemberOption) =>
  `${member.name || T.aMember}${member.me ? ` ${T.youSuffix}` : ''}`

/**
 * Who answers the conversation: a list of the organization's members (and "Unassigned") that saves as soon as
 * one is chosen (a button does it with no script), and "Assign to me", also the key `a`.
 */
export function AssigneePicker({
  conversation,
  members,
}: {
  conversation: ConversationDetail
  members: MemberOption[]
}) {
  const fetcher = useFetcher<{ error?: string | null }>()
  const action = `${conversationPath(conversation.id)}/assign`
  const current = conversation.assignee?.uid ?? ''
  const me = members.find((member) => member.me)
  return (
    <Group gap="xs" wrap="nowrap" justify="flex-end">
      {/* Keyed by the saved assignee: a live change elsewhere shows here too. */}
      <fetcher.Form method="post" action={action} key={current}>
        <Group gap={6} wrap="nowrap">
          <NativeSelect
            name="assigneeUid"
            label={T.assignee}
            aria-busy={fetcher.state !== 'idle'}
            defaultValue={current}
            size="xs"
            onChange={(event) => fetcher.submit(event.currentTarget.form)}
            data={[
              { value: '', label: T.unassigned },
              ...members.map((member) => ({ value: member.uid, label: memberLabel(member) })),
            ]}
            styles={{
              root: { display: 'flex', alignItems: 'center', gap: 6 },
              label: { fontWeight: 400, whiteSpace: 'nowrap' },
            }}
          />
          <noscript>
            <Button type="submit" size="xs" variant="default">
              {T.assign}
            </Button>
          </noscript>
        </Group>
      </fetcher.Form>
      {me && me.uid !== current ? (
        <ActionButton
          action={action}
          fields={{ assigneeUid: me.uid }}
          label={T.assignToMe}
          pendingLabel={T.saving}
          shortcut="a"
          size="xs"
          variant="subtle"
        />
      ) : null}
      {fetcher.data?.error ? (
        <Text size="xs" c="red.8" role="alert">
          {fetcher.data.error}
        </Text>
      ) : null}
    </Group>
  )
}
