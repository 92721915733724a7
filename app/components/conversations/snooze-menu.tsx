import { Button, Group, Menu, NativeSelect } from '@mantine/core'
import { IconClock } from '@tabler/icons-react'
import { useFetcher } from '@remix-run/react'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { type ConversationDetail, SNOOZE_CHOICES } from '~/lib/conversations/conversations'
import { conversationPath } from './paths'
import { CONVERSATION_UI_TEXTS as T } from './texts'

/**
 * "Snooze": the conversation leaves the open list until the chosen time, or until the customer writes. A menu of
 * times; before the script runs (or with none), a list of them and a button.
 */
export function SnoozeMenu({ conversation }: { conversation: ConversationDetail }) {
  const fetcher = useFetcher()
  const hydrated = useHydrated()
  const action = `${conversationPath(conversation.id)}/status`
  const snooze = (minutes: number) =>
    fetcher.submit({ status: 'snoozed', snoozeMinutes: String(minutes) }, { method: 'post', action })
  if (!hydrated) {
    return (
      <form method="post" action={action}>
        <input type="hidden" name="status" value="snoozed" />
        <Group gap={4} wrap="nowrap">
          <NativeSelect
            name="snoozeMinutes"
            aria-label={T.snoozeFor}
            size="xs"
            data={SNOOZE_CHOICES.map((c) => ({ value: String(c.minutes), label: c.label }))}
          />
          <Button type="submit" size="xs" variant="default">
            {T.snooze}
          </Button>
        </Group>
      </form>
    )
  }
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconClock size={14} aria-hidden />}
          loading={fetcher.state !== 'idle'}
        >
          {T.snooze}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{T.snoozeFor}</Menu.Label>
        {SNOOZE_CHOICES.map((choice) => (
          <Menu.Item key={choice.minutes} onClick={() => snooze(choice.minutes)}>
            {choice.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  )
}
