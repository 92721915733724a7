import { Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core'
import { Link } from '@remix-run/react'
import { DateTime } from '~/components/date-time'
import {
  NOTIFICATION_TEXTS,
  notificationHref,
  type NotificationItem,
} from '~/lib/notifications/notifications'
import classes from './notifications.module.css'

/** The member's notifications, newest first: each leads to its conversation (or channel); unread ones stand out. */
export function NotificationList({
  items,
  onOpen,
}: {
  items: NotificationItem[]
  /** Told when an item is followed (the bell marks it read and closes). */
  onOpen?: (item: NotificationItem) => void
}) {
  if (items.length === 0) {
    return (
      <Text c="gray.7" size="sm" p="sm">
        {NOTIFICATION_TEXTS.empty}
      </Text>
    )
  }
  return (
    <Stack gap={0} component="ul" className={classes.list}>
      {items.map((item) => (
        <li key={item.id}>
          <UnstyledButton
            component={Link}
            to={notificationHref(item)}
            className={classes.item}
            data-unread={item.read ? undefined : true}
            onClick={() => onOpen?.(item)}
          >
            <Text size="sm" fw={item.read ? 400 : 600}>
              {item.read ? null : <VisuallyHidden>Unread: </VisuallyHidden>}
              {item.title}
            </Text>
            {item.body ? (
              <Text size="xs" c="gray.7" lineClamp={2}>
                {item.body}
              </Text>
            ) : null}
            <Text size="xs" c="gray.6">
              <DateTime value={item.updatedAt} time />
            </Text>
          </UnstyledButton>
        </li>
      ))}
    </Stack>
  )
}
