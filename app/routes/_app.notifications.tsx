import { Anchor, Group, Paper } from '@mantine/core'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { PendingButton } from '~/components/forms/pending-button'
import { PageHeader } from '~/components/layout/page-header'
import { NotificationList } from '~/components/notifications/notification-list'
import { NoOrganization } from '~/components/organizations/no-organization'
import { getCurrentScope } from '~/http/organization.server'
import { NOTIFICATION_TEXTS, notificationReadSchema } from '~/lib/notifications/notifications'
import { PRODUCT_NAME } from '~/lib/shared/constants'
import { listNotifications, markNotificationsRead } from '~/services/notifications/bell.server'

// The member's notifications (issue 35, docs/decisions/068): the bell's list as a page of its own, where the bell
// leads without JavaScript.

export const meta: MetaFunction = () => [{ title: `Notifications · ${PRODUCT_NAME}` }]

export async function loader({ request }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  if (!scope)
    return data({ items: [], unread: 0, organization: false }, { headers: { 'Cache-Control': 'no-store' } })
  const bell = await listNotifications(scope)
  return data({ ...bell, organization: true }, { headers: { 'Cache-Control': 'private, no-store' } })
}

/** Marks the member's notifications read (the page's "Mark all as read"). */
export async function action({ request }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const parsed = notificationReadSchema.safeParse(Object.fromEntries(await request.formData()))
  if (!parsed.success) throw data('Invalid request', 400)
  if (!scope) return { unread: 0 }
  return markNotificationsRead(scope, parsed.data.intent === 'read' ? [parsed.data.id] : 'all')
}

export default function NotificationsPage() {
  const { items, unread, organization } = useLoaderData<typeof loader>()
  const navigation = useNavigation()
  const marking = navigation.state !== 'idle' && navigation.formAction === '/notifications'
  return (
    <>
      <PageHeader title={NOTIFICATION_TEXTS.bell} subtitle={NOTIFICATION_TEXTS.pageSubtitle} />
      {organization ? (
        <Paper withBorder p="sm" maw={720}>
          <Group justify="space-between" mb="xs" px="sm">
            <Anchor component={Link} to="/settings/notifications" size="sm">
              {NOTIFICATION_TEXTS.settingsLink}
            </Anchor>
            {unread > 0 ? (
              <Form method="post" action="/notifications">
                <input type="hidden" name="intent" value="read-all" />
                <PendingButton variant="subtle" size="xs" pending={marking} pendingLabel="Marking...">
                  {NOTIFICATION_TEXTS.markAllRead}
                </PendingButton>
              </Form>
            ) : null}
          </Group>
          <NotificationList items={items} />
        </Paper>
      ) : (
        <NoOrganization hint={NOTIFICATION_TEXTS.pageSubtitle} />
      )}
    </>
  )
}
