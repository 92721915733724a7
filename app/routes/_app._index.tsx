import { Anchor, Box, Group, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core'
import chartsStylesHref from '@mantine/charts/styles.css?url'
import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import {
  isRouteErrorResponse,
  Link,
  useLoaderData,
  useLocation,
  useNavigation,
  useRouteError,
} from '@remix-run/react'
import { ChannelHealthPanel } from '~/components/dashboard/channel-health-panel'
import { Dashboard } from '~/components/dashboard/dashboard'
import { GettingStartedChecklist } from '~/components/dashboard/getting-started'
import { PageHeader } from '~/components/layout/page-header'
import { PRODUCT_NAME } from '~/lib/shared/constants'
import { DASHBOARD_TEXTS as T } from '~/lib/analytics/dashboard'
import { parseDashboardQuery } from '~/lib/analytics/dashboard-query'
import { getCurrentScope } from '~/http/organization.server'
import { getRuntime } from '~/runtime/runtime.server'
import { getAnalytics } from '~/services/analytics/analytics.server'
import { getChannelsHealth } from '~/services/channels/health.server'
import { getGettingStarted } from '~/services/analytics/getting-started.server'
import { listAgents } from '~/services/agents/agents.server'
import { listConversationChannels } from '~/services/conversations/inbox.server'
import { getOrganization } from '~/services/organizations/organizations.server'
import { isAppError } from '~/utils/errors'
import { NoOrganization } from '~/components/organizations/no-organization'

export const meta: MetaFunction = () => [
  { title: `Dashboard · ${PRODUCT_NAME}` },
  { name: 'description', content: `What your ${PRODUCT_NAME} agents answered, how fast, and at what cost.` },
]

// The charts' styles, on this page only (docs/decisions/047).
export const links: LinksFunction = () => [{ rel: 'stylesheet', href: chartsStylesHref }]

/**
 * The dashboard (issue #19): the getting-started checklist until a channel has received its first customer
 * message, then the figures of the query string's period and filters. A query that does not parse is answered
 * 400 with its messages beside the form; a channel or agent of another organization 404, as the API does.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  if (!scope) return { state: 'no-organization' as const }
  const [gettingStarted, health] = await Promise.all([
    getGettingStarted(scope),
    getChannelsHealth(scope.db, scope.organizationId),
  ])
  if (!gettingStarted.steps.channelConnected || !gettingStarted.steps.messageReceived) {
    return { state: 'getting-started' as const, gettingStarted, health }
  }
  const [organization, channels, agents, { config }] = await Promise.all([
    getOrganization(scope),
    listConversationChannels(scope),
    listAgents(scope),
    getRuntime(),
  ])
  const parsed = parseDashboardQuery(new URL(request.url).searchParams, organization.timeZone)
  const filters = {
    channels: channels.map(({ id, name }) => ({ id, name })),
    agents: agents.items.map(({ id, name }) => ({ id, name })),
  }
  if (!parsed.ok) {
    const form = { period: 'custom', from: '', to: '', channelId: '', agentId: '', ...parsed.form }
    return data(
      {
        state: 'invalid' as const,
        ...filters,
        form,
        errors: parsed.errors,
        timeZone: organization.timeZone,
        health,
      },
      { status: 400 },
    )
  }
  const { query } = parsed
  const analytics = await getAnalytics(scope, { ...query, prices: config.llm.prices }).catch((error) => {
    if (isAppError(error, 'NOT_FOUND')) throw data(error.message, { status: 404 })
    throw error
  })
  const form = {
    period: parsed.period,
    from: query.from,
    to: query.to,
    channelId: query.channelId ?? '',
    agentId: query.agentId ?? '',
  }
  return {
    state: 'figures' as const,
    ...filters,
    form,
    errors: [],
    analytics,
    timeZone: organization.timeZone,
    health,
  }
}

function LoadingFigures() {
  return (
    <Stack gap="md" role="status" aria-label={T.loading}>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="sm">
        {Array.from({ length: 12 }, (_, i) => (
          <Skeleton key={i} h={92} radius="md" />
        ))}
      </SimpleGrid>
      <Skeleton h={320} radius="md" />
    </Stack>
  )
}

export default function DashboardPage() {
  const loaderData = useLoaderData<typeof loader>()
  const navigation = useNavigation()
  const loading = navigation.state === 'loading' && navigation.location.pathname === '/'

  return (
    <>
      <PageHeader title={T.title} subtitle={`Welcome to ${PRODUCT_NAME}.`} />
      {loaderData.state === 'no-organization' ? null : <ChannelHealthPanel channels={loaderData.health} />}
      {loaderData.state === 'no-organization' ? (
        <NoOrganization hint="Create or choose an organization to see its messages and answers." />
      ) : loaderData.state === 'getting-started' ? (
        <GettingStartedChecklist {...loaderData.gettingStarted} />
      ) : (
        <Box aria-busy={loading}>
          <Dashboard
            form={loaderData.form}
            channels={loaderData.channels}
            agents={loaderData.agents}
            errors={loaderData.errors}
            timeZone={loaderData.timeZone}
            analytics={loaderData.state === 'figures' ? loaderData.analytics : null}
            loading={loading}
            loadingFallback={<LoadingFigures />}
          />
        </Box>
      )}
    </>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  const location = useLocation()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <Stack>
      <PageHeader title={T.title} />
      <Paper withBorder p="xl" role="alert">
        <Text fw={600}>{notFound ? String(error.data) : T.loadFailed}</Text>
        <Text c="gray.7">
          {notFound ? 'It may have been deleted, or belong to another organization.' : T.loadFailedHint}
        </Text>
        <Group mt="md" gap="lg">
          {notFound ? null : (
            <Anchor component={Link} to={`${location.pathname}${location.search}`} reloadDocument>
              {T.retry}
            </Anchor>
          )}
          <Anchor component={Link} to="/" reloadDocument>
            {T.showAll}
          </Anchor>
        </Group>
      </Paper>
    </Stack>
  )
}
