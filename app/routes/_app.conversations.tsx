import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Anchor, Center, Group, Loader, Paper, Stack, Text } from '@mantine/core'
import { IconSettings } from '@tabler/icons-react'
import { Link, Outlet, useLoaderData, useLocation, useNavigation, useParams } from '@remix-run/react'
import { ConversationList } from '~/components/conversations/conversation-list'
import { InboxShortcuts } from '~/components/conversations/inbox-shortcuts'
import classes from '~/components/conversations/conversations.module.css'
import { CONVERSATIONS_PATH, INBOX_SETTINGS_PATH } from '~/components/conversations/paths'
import { CONVERSATION_UI_TEXTS as T } from '~/components/conversations/texts'
import { useInboxEvents } from '~/components/hooks/use-inbox-events'
import { PageHeader } from '~/components/layout/page-header'
import { PRODUCT_NAME } from '~/lib/shared/constants'
import { listSearch, readListQuery } from '~/lib/conversations/list-query'
import { getCurrentScope } from '~/http/organization.server'
import { countViews } from '~/services/conversations/assignment.server'
import { listOrganizationLabels } from '~/services/conversations/labels.server'
import { listConversationChannels, listConversations } from '~/services/conversations/inbox.server'
import { NoOrganization } from '~/components/organizations/no-organization'

export const meta: MetaFunction = () => [{ title: `Conversations · ${PRODUCT_NAME}` }]

/**
 * The list with the filters of the query string (a blank one means any; one that does not parse is left out),
 * the organization's labels, and the counts of its views.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  const query = readListQuery(new URL(request.url).searchParams)
  const { page, pageSize, ...filters } = query
  if (!scope) {
    return {
      hasOrganization: false,
      organizationId: null,
      items: [],
      total: 0,
      page,
      pageSize,
      filters,
      channels: [],
      labels: [],
      views: { mine: 0, unassigned: 0, needs_attention: 0, all: 0 },
    }
  }
  const [list, channels, labels, views] = await Promise.all([
    listConversations(scope, query),
    listConversationChannels(scope),
    listOrganizationLabels(scope),
    countViews(scope),
  ])
  return {
    hasOrganization: true,
    organizationId: scope.organizationId,
    ...list,
    filters,
    channels,
    labels,
    views,
  }
}

/**
 * The inbox (/conversations): the list beside the open conversation (_app.conversations.$conversationId) on a
 * wide screen; on a phone the list, or the conversation with a way back. Live: the list and the open conversation
 * reload when one of the organization's conversations changes.
 */
export default function ConversationsPage() {
  const data = useLoaderData<typeof loader>()
  const { conversationId } = useParams()
  const navigation = useNavigation()
  const location = useLocation()
  // Live: a change of any of the organization's conversations reloads the list and the open conversation.
  useInboxEvents({ organizationId: data.organizationId ?? undefined })
  const loadingList =
    navigation.state === 'loading' &&
    navigation.location.pathname === CONVERSATIONS_PATH &&
    navigation.location.search !== location.search

  return (
    <div className={classes.page} data-fill-viewport data-open={Boolean(conversationId)}>
      <div className={classes.pageHeader}>
        <PageHeader
          title={T.title}
          subtitle={T.subtitle}
          actions={
            <Anchor component={Link} to={INBOX_SETTINGS_PATH} size="sm">
              <Group gap={4} component="span" wrap="nowrap">
                <IconSettings size={16} aria-hidden />
                {T.inboxSettings}
              </Group>
            </Anchor>
          }
        />
      </div>
      {!data.hasOrganization ? (
        <NoOrganization hint={T.noOrganizationHint} />
      ) : (
        <div className={classes.inbox} data-open={Boolean(conversationId)}>
          <section className={classes.listPane} aria-label={T.title} aria-busy={loadingList}>
            {loadingList ? (
              <Center py="xl" role="status" aria-live="polite">
                <Group gap="sm">
                  <Loader size="sm" />
                  <Text c="gray.7">{T.loading}</Text>
                </Group>
              </Center>
            ) : (
              <ConversationList {...data} />
            )}
          </section>
          <section className={classes.viewPane}>
            <Outlet />
          </section>
          <InboxShortcuts
            ids={data.items.map((item) => item.id)}
            openId={conversationId}
            search={listSearch(data.filters, data.page)}
          />
        </div>
      )}
    </div>
  )
}

export function ErrorBoundary() {
  return (
    <Stack>
      <PageHeader title={T.title} />
      <Paper withBorder p="xl" role="alert">
        <Text fw={600}>The conversations could not be loaded.</Text>
        <Text c="gray.7">
          Reload the page to try again; if it keeps failing, the server may be unreachable.
        </Text>
      </Paper>
    </Stack>
  )
}
