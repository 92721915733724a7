import { Anchor, Button, Group, Stack, Table, Text } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { IconPencil, IconRefresh, IconTrash } from '@tabler/icons-react'
import { Form, Link, useFetcher } from '@remix-run/react'
import { useEffect } from 'react'
import { DateTime } from '~/components/date-time'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { formatBytes, KNOWLEDGE_SOURCE_KIND_LABELS } from '~/lib/knowledge/knowledge'
import classes from './knowledge.module.css'
import { KnowledgeStatusBadge } from './status-badge'
import { sourcePath } from './paths'
import { KNOWLEDGE_TEXTS as T } from './texts'
import type { KnowledgeItem } from './types'

/** What the refresh action answers. */
type RefreshAnswer = { refreshed: { id: string } | null; error: string | null }

/**
 * "Fetch again" (a web page) or "Process again" (any other source that failed): a form of its own, sent by a
 * fetcher once hydrated (the list reloads after it), posted as the page without JavaScript.
 */
function RefreshButton({ source }: { source: KnowledgeItem }) {
  const hydrated = useHydrated()
  const fetcher = useFetcher<RefreshAnswer>()
  const pending = fetcher.state !== 'idle'
  const done = fetcher.state === 'idle' ? fetcher.data : undefined
  useEffect(() => {
    if (!done) return
    if (done.refreshed) notifications.show({ color: 'blue', message: T.refreshed(source.title) })
    else if (done.error) notifications.show({ color: 'red', message: T.refreshFailed(done.error) })
  }, [done, source.title])

  const label = source.kind === 'url' ? 'Fetch again' : 'Process again'
  const FormComponent = hydrated ? fetcher.Form : Form
  return (
    <FormComponent method="post" action={sourcePath(source.id, 'refresh')} preventScrollReset>
      {hydrated ? null : <input type="hidden" name="noscript" value="true" />}
      <Button
        type="submit"
        size="compact-sm"
        variant="subtle"
        leftSection={<IconRefresh size={14} aria-hidden />}
        loading={pending}
        disabled={source.status === 'processing'}
        aria-label={`${label}: ${source.title}`}
      >
        {label}
      </Button>
    </FormComponent>
  )
}

function SourceActions({ source }: { source: KnowledgeItem }) {
  const canRefresh = source.kind === 'url' || source.status === 'failed'
  return (
    <Group gap={4} wrap="wrap">
      <Button
        component={Link}
        to={sourcePath(source.id, 'edit')}
        preventScrollReset
        size="compact-sm"
        variant="subtle"
        leftSection={<IconPencil size={14} aria-hidden />}
        aria-label={`Edit: ${source.title}`}
      >
        Edit
      </Button>
      {canRefresh ? <RefreshButton source={source} /> : null}
      <Button
        component={Link}
        to={sourcePath(source.id, 'delete')}
        preventScrollReset
        size="compact-sm"
        variant="subtle"
        color="red.7"
        leftSection={<IconTrash size={14} aria-hidden />}
        aria-label={`Delete: ${source.title}`}
      >
        Delete
      </Button>
    </Group>
  )
}

/** Under the title: where the source came from (a web page's address and pages, a file's name). */
function Origin({ source }: { source: KnowledgeItem }) {
  if (source.kind === 'url' && source.url) {
    const pages = source.pages ?? []
    const unread = pages.filter((page) => page.error).length
    return (
      <>
        <Anchor
          href={source.url}
          target="_blank"
          rel="noreferrer noopener"
          size="xs"
          className={classes.address}
        >
          {source.url}
        </Anchor>
        {pages.length > 1 || unread > 0 ? (
          <Text size="xs" c="gray.7">
            {pages.length} {pages.length === 1 ? 'page' : 'pages'} read
            {unread > 0 ? `, ${unread} could not be read` : ''}
          </Text>
        ) : null}
      </>
    )
  }
  if (source.kind === 'file' && source.fileName && source.fileName !== source.title) {
    return (
      <Text size="xs" c="gray.7" className={classes.address}>
        {source.fileName}
      </Text>
    )
  }
  return null
}

/**
 * The organization's sources: a table on a wide screen, a card per source on a phone (the same rows, each cell
 * labelled by its column's name).
 */
export function SourceTable({ sources }: { sources: KnowledgeItem[] }) {
  return (
    <Table className={classes.table} verticalSpacing="sm" highlightOnHover aria-label="Knowledge sources">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Type</Table.Th>
          <Table.Th>Title</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Size</Table.Th>
          <Table.Th>Passages</Table.Th>
          <Table.Th>Updated</Table.Th>
          <Table.Th>
            <span className={classes.visuallyHidden}>Actions</span>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {sources.map((source) => (
          <Table.Tr key={source.id} data-status={source.status}>
            <Table.Td data-label="Type">
              <Text size="sm" c="gray.7">
                {KNOWLEDGE_SOURCE_KIND_LABELS[source.kind]}
              </Text>
            </Table.Td>
            <Table.Td data-label="Title" className={classes.titleCell}>
              <Stack gap={2}>
                <Text size="sm" fw={600} className={classes.title}>
                  {source.title}
                </Text>
                <Origin source={source} />
              </Stack>
            </Table.Td>
            <Table.Td data-label="Status">
              <KnowledgeStatusBadge status={source.status} failureReason={source.failureReason} />
            </Table.Td>
            <Table.Td data-label="Size">
              <Text size="sm" className={classes.when}>
                {source.sizeBytes > 0 ? formatBytes(source.sizeBytes) : '—'}
              </Text>
            </Table.Td>
            <Table.Td data-label="Passages">
              <Text size="sm">{source.status === 'processing' ? '—' : source.passageCount}</Text>
            </Table.Td>
            <Table.Td data-label="Updated">
              <Text size="sm" c="gray.7" className={classes.when}>
                <DateTime value={source.updatedAt} />
              </Text>
            </Table.Td>
            <Table.Td data-label="Actions" className={classes.actionsCell}>
              <SourceActions source={source} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}
