import { ActionIcon, Anchor, Button, Group, Indicator, Loader, Popover, Text } from '@mantine/core'
import { IconBell } from '@tabler/icons-react'
import { Link } from '@remix-run/react'
import { useState } from 'react'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { NOTIFICATION_TEXTS } from '~/lib/notifications/notifications'
import { NotificationList } from './notification-list'
import classes from './notifications.module.css'
import type { NotificationBellState } from './use-notification-bell'

/**
 * The header's bell: the unread count, and the list in a popover. Without script it is a link to /notifications,
 * the same list as a page.
 */
export function NotificationBell({ bell }: { bell: NotificationBellState }) {
  const hydrated = useHydrated()
  const [opened, setOpened] = useState(false)
  const label = bell.unread > 0 ? NOTIFICATION_TEXTS.bellUnread(bell.unread) : NOTIFICATION_TEXTS.bell
  const icon = (
    <Indicator
      label={bell.unread > 99 ? '99+' : bell.unread}
      size={16}
      color="red"
      disabled={bell.unread === 0}
      offset={4}
    >
      <IconBell size={20} aria-hidden />
    </Indicator>
  )
  if (!hydrated) {
    return (
      <ActionIcon
        component={Link}
        to="/notifications"
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={label}
      >
        {icon}
      </ActionIcon>
    )
  }
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={360}
      shadow="md"
      trapFocus
      returnFocus
    >
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={label}
          aria-haspopup="dialog"
          aria-expanded={opened}
          onClick={() => {
            if (!opened) bell.refresh()
            setOpened((o) => !o)
          }}
        >
          {icon}
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p="xs" aria-label={NOTIFICATION_TEXTS.bell} role="dialog">
        <Group justify="space-between" px="sm" pb="xs">
          <Text fw={600} size="sm">
            {NOTIFICATION_TEXTS.bell}
          </Text>
          {bell.unread > 0 ? (
            <Button variant="subtle" size="compact-xs" onClick={() => bell.markRead('all')}>
              {NOTIFICATION_TEXTS.markAllRead}
            </Button>
          ) : null}
        </Group>
        <div className={classes.popover}>
          {bell.items ? (
            <NotificationList
              items={bell.items}
              onOpen={(item) => {
                if (!item.read) bell.markRead(item.id)
                setOpened(false)
              }}
            />
          ) : (
            <Group justify="center" p="md">
              <Loader size="sm" aria-label="Loading notifications" />
            </Group>
          )}
        </div>
        <Anchor
          component={Link}
          to="/settings/notifications"
          size="xs"
          display="block"
          px="sm"
          pt="xs"
          onClick={() => setOpened(false)}
        >
          {NOTIFICATION_TEXTS.settingsLink}
        </Anchor>
      </Popover.Dropdown>
    </Popover>
  )
}
