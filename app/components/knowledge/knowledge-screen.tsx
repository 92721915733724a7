import { Anchor, Button, Center, Group, Loader, Paper, Stack, Text, ThemeIcon } from '@mantine/core'
import { IconBook2, IconFileUpload, IconHelpCircle, IconNotes, IconWorldWww } from '@tabler/icons-react'
import { Link, useLocation, useNavigation } from '@remix-run/react'
import { RouteDialog } from '~/components/dialogs/route-dialog'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { useRevalidateWhile } from '~/components/hooks/use-revalidate-while'
import { PageHeader } from '~/components/layout/page-header'
import classes from './knowledge.module.css'
import { KNOWLEDGE_PATH, KNOWLEDGE_SETTINGS_PATH, NEW_SOURCE_PATHS } from './paths'
import { SourceTable } from './source-table'
import { KNOWLEDGE_TEXTS as T } from './texts'
import { TryQuestion, type Trial } from './try-question'
import type { KnowledgeItem } from './types'
import { NoOrganization } from '~/components/organizations/no-organization'

/** How often the page reloads its list while a source is being processed. */
const PROCESSING_POLL_MS = 2_000

function AddButtons({ variant = 'default' }: { variant?: 'default' | 'filled' }) {
  const buttons = [
    { to: NEW_SOURCE_PATHS.faq, label: 'Add FAQ', icon: IconHelpCircle },
    { to: NEW_SOURCE_PATHS.text, label: 'Add text', icon: IconNotes },
    { to: NEW_SOURCE_PATHS.file, label: 'Upload file', icon: IconFileUpload },
    { to: NEW_SOURCE_PATHS.url, label: 'Add web page', icon: IconWorldWww },
  ]
  return (
    <Group gap="xs" wrap="wrap">
      {buttons.map(({ to, label, icon: Icon }, index) => (
        <Button
          key={to}
          component={Link}
          to={to}
          preventScrollReset
          variant={variant === 'filled' && index === 0 ? 'filled' : 'default'}
          leftSection={<Icon size={16} aria-hidden />}
        >
          {label}
        </Button>
      ))}
    </Group>
  )
}

function EmptyState() {
  return (
    <Paper withBorder p="xl">
      <Stack align="center" gap="sm">
        <ThemeIcon size={48} radius="xl" variant="light">
          <IconBook2 size={28} aria-hidden />
        </ThemeIcon>
        <Text fw={600} size="lg" ta="center">
          {T.empty}
        </Text>
        <AddButtons variant="filled" />
      </Stack>
    </Paper>
  )
}

/** How many sources are still being processed (a screen reader hears it change), and how the page follows them. */
function ProcessingAnnouncement({ processing }: { processing: number }) {
  const hydrated = useHydrated()
  return (
    <Text
      size="sm"
      c="gray.7"
      aria-live="polite"
      role="status"
      className={processing > 0 ? undefined : classes.visuallyHidden}
    >
      {processing > 0 ? T.processing(processing) : ''}
      {processing > 0 && hydrated ? ` ${T.processingNote}` : null}
      {processing > 0 ? <noscript> {T.processingNoScript}</noscript> : null}
    </Text>
  )
}

/**
 * The Knowledge page (/knowledge): the organization's sources, and a box to try a question on them; the dialogs
 * that add, edit and delete sources are the child routes (_app.knowledge.new.faq...), in a RouteDialog. While a
 * source is being processed the list reloads itself every two seconds (not while a dialog is open).
 */
export function KnowledgeScreen({
  sources,
  hasOrganization,
  trial,
}: {
  sources: KnowledgeItem[]
  hasOrganization: boolean
  trial: Trial | null
}) {
  const location = useLocation()
  const navigation = useNavigation()
  const onList = location.pathname === KNOWLEDGE_PATH
  const processing = sources.filter((source) => source.status === 'processing').length
  useRevalidateWhile(onList && processing > 0, PROCESSING_POLL_MS)

  // A reload of the list from the list, not a dialog opening or closing, nor a question asked.
  const loading =
    navigation.state === 'loading' &&
    navigation.location.pathname === KNOWLEDGE_PATH &&
    onList &&
    !new URLSearchParams(navigation.location.search).has('q')

  let content
  if (!hasOrganization) {
    content = <NoOrganization hint={T.noOrganization} />
  } else if (loading) {
    content = (
      <Center py="xl" role="status" aria-live="polite">
        <Group gap="sm">
          <Loader size="md" />
          <Text c="gray.7">{T.loading}</Text>
        </Group>
      </Center>
    )
  } else if (sources.length === 0) {
    content = <EmptyState />
  } else {
    content = (
      <Stack gap="lg">
        <Stack gap="xs">
          <ProcessingAnnouncement processing={processing} />
          <Paper withBorder p={{ base: 0, sm: 'xs' }} className={classes.listFrame}>
            <SourceTable sources={sources} />
          </Paper>
        </Stack>
        <TryQuestion trial={trial} />
        <Text size="sm" c="gray.7">
          {T.customerWordsHint}{' '}
          <Anchor component={Link} to={KNOWLEDGE_SETTINGS_PATH} size="sm">
            {T.customerWordsLink}
          </Anchor>
        </Text>
      </Stack>
    )
  }

  return (
    <>
      <PageHeader
        title={T.title}
        subtitle={T.subtitle}
        actions={hasOrganization && sources.length > 0 ? <AddButtons /> : null}
      />
      {hasOrganization ? <RouteDialog listPath={KNOWLEDGE_PATH} /> : null}
      {content}
    </>
  )
}
