import {
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
} from '@mantine/core'
import { IconMessages, IconSearch } from '@tabler/icons-react'
import { Form, Link, NavLink, useParams } from '@remix-run/react'
import { DateTime } from '~/components/date-time'
import { PlatformIcon } from '~/components/channels/platform'
import {
  CONVERSATION_STATE_LABELS,
  CONVERSATION_STATES,
  CONVERSATION_STATUS_LABELS,
  CONVERSATION_STATUSES,
  CONVERSATION_TEXTS,
  CONVERSATION_VIEWS,
  type ConversationFilters,
  type ConversationView,
  type ViewCounts,
} from '~/lib/conversations/conversations'
import { ANY_STATUS, listSearch } from '~/lib/conversations/list-query'
import type { ConversationSummary } from '~/lib/conversations/conversations'
import classes from './conversations.module.css'
import { CONVERSATIONS_PATH, conversationPath } from './paths'
import { StateBadge, StatusBadge } from './state-badge'
import { CONVERSATION_UI_TEXTS as T } from './texts'

export type ChannelOption = { id: string; name: string }

/** Who the customer is: the platform's name for them, else their id on the platform. */
export const customerLabel = (customer: ConversationSummary['customer']) =>
  customer.name ?? customer.platformId

/** The views' own filters: whose conversations, or those needing a person; the other filters are kept. */
const VIEW_FILTERS: Record<ConversationView, Pick<ConversationFilters, 'assignee' | 'state'>> = {
  mine: { assignee: 'me' },
  unassigned: { assignee: 'none' },
  needs_attention: { state: 'needs_attention' },
  all: {},
}

const inView = (filters: ConversationFilters, view: ConversationView) =>
  filters.assignee === VIEW_FILTERS[view].assignee && filters.state === VIEW_FILTERS[view].state

/**
 * Mine / Unassigned / Needs attention / All, each with how many open conversations it holds: links, so that
 * they work with no script, each keeping the channel, status and words.
 */
function ViewTabs({ filters, counts }: { filters: ConversationFilters; counts: ViewCounts }) {
  return (
    <nav aria-label={T.viewTabs} className={classes.tabs}>
      {CONVERSATION_VIEWS.map((view) => {
        const label = T.views[view]
        return (
          <Link
            key={view}
            to={`${CONVERSATIONS_PATH}${listSearch({ ...filters, assignee: undefined, state: undefined, ...VIEW_FILTERS[view] })}`}
            className={classes.tab}
            aria-current={inView(filters, view) ? 'page' : undefined}
            aria-label={T.viewCount(label, counts[view])}
          >
            {label}{' '}
            <span className={classes.tabCount} aria-hidden>
              {counts[view]}
            </span>
          </Link>
        )
      })}
    </nav>
  )
}

const isFiltered = (filters: ConversationFilters) =>
  Boolean(
    filters.channelId ||
      filters.state ||
      filters.status !== 'open' ||
      filters.q ||
      filters.assignee ||
      filters.label,
  )

function Filters({
  filters,
  channels,
  labels,
  hasRows,
}: {
  filters: ConversationFilters
  channels: ChannelOption[]
  labels: string[]
  hasRows: boolean
}) {
  const filtered = isFiltered(filters)
  return (
    // Keyed by the filters: the fields show what the list is filtered by after every navigation (Clear included).
    <Form
      key={listSearch(filters)}
      method="get"
      action={CONVERSATIONS_PATH}
      role="search"
      aria-label={T.filtersLabel}
    >
      <Stack gap={6}>
        {filters.assignee ? <input type="hidden" name="assignee" value={filters.assignee} /> : null}
        <TextInput
          name="q"
          type="search"
          label={T.search}
          labelProps={{ className: classes.hiddenLabel }}
          placeholder={T.searchPlaceholder}
          defaultValue={filters.q ?? ''}
          leftSection={<IconSearch size={16} aria-hidden />}
          maxLength={200}
          size="sm"
        />
        <Group gap={6} wrap="nowrap" align="center">
          <NativeSelect
            name="channelId"
            label={T.channel}
            labelProps={{ className: classes.hiddenLabel }}
            defaultValue={filters.channelId ?? ''}
            size="xs"
            style={{ flex: 1, minWidth: 0 }}
            data={[
              { value: '', label: T.allChannels },
              ...channels.map((c) => ({ value: c.id, label: c.name })),
            ]}
          />
          <NativeSelect
            name="state"
            label={T.state}
            labelProps={{ className: classes.hiddenLabel }}
            defaultValue={filters.state ?? ''}
            size="xs"
            style={{ flex: 1, minWidth: 0 }}
            data={[
              { value: '', label: T.allStates },
              ...CONVERSATION_STATES.map((s) => ({ value: s, label: CONVERSATION_STATE_LABELS[s] })),
            ]}
          />
          <NativeSelect
            name="status"
            label={T.status}
            labelProps={{ className: classes.hiddenLabel }}
            defaultValue={filters.status ?? ANY_STATUS}
            size="xs"
            style={{ flex: 1, minWidth: 0 }}
            data={[
              ...CONVERSATION_STATUSES.map((s) => ({ value: s, label: CONVERSATION_STATUS_LABELS[s] })),
              { value: ANY_STATUS, label: T.anyStatus },
            ]}
          />
        </Group>
        {labels.length > 0 ? (
          <NativeSelect
            name="label"
            label={T.label}
            labelProps={{ className: classes.hiddenLabel }}
            defaultValue={filters.label ?? ''}
            size="xs"
            data={[{ value: '', label: T.allLabels }, ...labels.map((l) => ({ value: l, label: l }))]}
          />
        ) : null}
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Group gap="sm">
            <Button type="submit" size="xs">
              {T.apply}
            </Button>
            {filtered ? (
              <Anchor component={Link} to={CONVERSATIONS_PATH} size="sm">
                {T.clear}
              </Anchor>
            ) : null}
          </Group>
          {hasRows ? (
            <Anchor href={`${CONVERSATIONS_PATH}/export.csv${listSearch(filters)}`} size="sm" download>
              {T.exportCsv}
            </Anchor>
          ) : null}
        </Group>
      </Stack>
    </Form>
  )
}

/**
 * A row's first label, and how many more: the name keeps the room. Not on a phone, where the name alone fills
 * the line (the conversation shows them all).
 */
function RowLabels({ labels }: { labels: string[] }) {
  if (labels.length === 0) return null
  const shown = labels.slice(0, 1)
  return (
    <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }} visibleFrom="sm">
      <span className={classes.hiddenLabel}>{T.labels}:</span>
      {shown.map((label) => (
        <Badge key={label} size="xs" variant="light" radius="sm" style={{ textTransform: 'none' }}>
          {label}
        </Badge>
      ))}
      {labels.length > shown.length ? (
        <Text span size="xs" c="gray.7">
          +{labels.length - shown.length}
        </Text>
      ) : null}
    </Group>
  )
}

function Row({ conversation, search }: { conversation: ConversationSummary; search: string }) {
  const { channel, lastMessage, state } = conversation
  const { conversationId } = useParams()
  // The open conversation is being read: never marked (its own loader marks it read at the same time).
  const unread = conversation.unread && conversationId !== conversation.id
  return (
    <NavLink
      to={`${conversationPath(conversation.id)}${search}`}
      className={classes.row}
      data-unread={unread}
      prefetch="intent"
    >
      <Group gap="sm" wrap="nowrap" align="center">
        <PlatformIcon platform={channel.platformName} size={28} />
        <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              <Text fw={600} size="sm" className={classes.preview}>
                {unread ? (
                  <>
                    <span className={classes.unreadDot} aria-hidden />
                    <span className={classes.hiddenLabel}>{T.unread} </span>
                  </>
                ) : null}
                {customerLabel(conversation.customer)}
              </Text>
              <RowLabels labels={conversation.labels} />
            </Group>
            <Text size="xs" c="gray.7" style={{ flexShrink: 0 }}>
              <DateTime value={lastMessage.at} time />
            </Text>
          </Group>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" c="gray.8" className={classes.preview}>
              <Text span size="xs" c="gray.7">
                {channel.name} ·{' '}
              </Text>
              {lastMessage.direction === 'outbound' ? '↩ ' : ''}
              {lastMessage.text || '—'}
            </Text>
            {/* The usual case, an open conversation the AI answers, goes without a badge. */}
            {conversation.status !== 'open' ? (
              <StatusBadge status={conversation.status} short />
            ) : state === 'ai' ? null : (
              <StateBadge state={state} short />
            )}
          </Group>
        </Stack>
      </Group>
    </NavLink>
  )
}

function Empty({ filtered }: { filtered: boolean }) {
  return (
    <Paper withBorder p="xl">
      <Stack align="center" gap="xs" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light">
          <IconMessages size={28} aria-hidden />
        </ThemeIcon>
        <Text fw={600} size="lg">
          {filtered ? CONVERSATION_TEXTS.noMatches : CONVERSATION_TEXTS.empty}
        </Text>
        {filtered ? null : (
          <>
            <Text c="gray.7">{CONVERSATION_TEXTS.emptyHint}</Text>
            <Group gap="md" justify="center">
              <Anchor component={Link} to="/channels">
                Channels
              </Anchor>
              <Anchor component={Link} to="/agents">
                Agents
              </Anchor>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  )
}

/** The inbox's list: filters, one row per conversation (newest activity first) and the pages. */
export function ConversationList({
  items,
  total,
  page,
  pageSize,
  filters,
  channels,
  labels,
  views,
}: {
  items: ConversationSummary[]
  total: number
  page: number
  pageSize: number
  filters: ConversationFilters
  channels: ChannelOption[]
  labels: string[]
  views: ViewCounts
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize))
  const search = listSearch(filters, page)
  const filtered = isFiltered(filters)
  return (
    <Stack gap="sm">
      <ViewTabs filters={filters} counts={views} />
      <Filters filters={filters} channels={channels} labels={labels} hasRows={items.length > 0} />
      {items.length === 0 ? (
        <Empty filtered={filtered} />
      ) : (
        <Paper withBorder p={4}>
          <nav aria-label={T.title}>
            <Stack gap={2} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {items.map((conversation) => (
                <li key={conversation.id}>
                  <Row conversation={conversation} search={search} />
                </li>
              ))}
            </Stack>
          </nav>
        </Paper>
      )}
      {pages > 1 ? (
        <Group justify="space-between" gap="xs">
          {page > 1 ? (
            <Anchor component={Link} to={`${CONVERSATIONS_PATH}${listSearch(filters, page - 1)}`} size="sm">
              ← {T.newer}
            </Anchor>
          ) : (
            <span />
          )}
          <Text size="sm" c="gray.7" aria-live="polite">
            {T.pageOf(page, pages)}
          </Text>
          {page < pages ? (
            <Anchor component={Link} to={`${CONVERSATIONS_PATH}${listSearch(filters, page + 1)}`} size="sm">
              {T.older} →
            </Anchor>
          ) : (
            <span />
          )}
        </Group>
      ) : null}
    </Stack>
  )
}
