import { Anchor, Badge, Button, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core'
import { IconPlus, IconSearch } from '@tabler/icons-react'
import { Form, Link, useNavigation } from '@remix-run/react'
import { useId } from 'react'
import { KNOWLEDGE_LIMITS } from '~/lib/knowledge/knowledge'
import { scorePercent } from '~/lib/knowledge/forms'
import classes from './knowledge.module.css'
import { KNOWLEDGE_PATH, newFaqWithQuestion } from './paths'
import { KNOWLEDGE_TEXTS as T } from './texts'

/** A passage as "Try a question" shows it (never as HTML: it is the organization's uploaded or fetched text). */
export type TrialHit = {
  passageId: string
  sourceId: string
  title: string
  headingPath: string[]
  text: string
  score: number
}

/** What the page's loader answers for `?q=`: the question, the passages found, or why it was not asked. */
export type Trial = { question: string; hits: TrialHit[]; error: string | null }

const SNIPPET_LENGTH = 320

const snippetOf = (text: string) =>
  text.length > SNIPPET_LENGTH ? `${text.slice(0, SNIPPET_LENGTH).trimEnd()}…` : text

function Hit({ hit }: { hit: TrialHit }) {
  const titleId = useId()
  return (
    <Paper component="li" withBorder p="sm" className={classes.hit} aria-labelledby={titleId}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text id={titleId} fw={600} size="sm" className={classes.title}>
            {hit.title}
          </Text>
          {hit.headingPath.length > 0 ? (
            <Text size="xs" c="gray.7" className={classes.title}>
              {hit.headingPath.join(' › ')}
            </Text>
          ) : null}
        </Stack>
        <Badge variant="light" color="blue" radius="sm" style={{ textTransform: 'none', flex: 'none' }}>
          {scorePercent(hit.score)} match
        </Badge>
      </Group>
      <Text size="sm" mt={6} className={classes.snippet}>
        {snippetOf(hit.text)}
      </Text>
    </Paper>
  )
}

/**
 * "Try a question": a GET form on the page itself (`?q=`), so that it works without JavaScript and the address
 * can be shared; the page's loader runs the same retrieval agents use.
 */
export function TryQuestion({ trial }: { trial: Trial | null }) {
  const headingId = useId()
  const navigation = useNavigation()
  const searching =
    navigation.state === 'loading' &&
    navigation.location.pathname === KNOWLEDGE_PATH &&
    new URLSearchParams(navigation.location.search).has('q')
  const asked = trial && !trial.error ? trial : null

  return (
    <Paper component="section" withBorder p="lg" aria-labelledby={headingId}>
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id={headingId}>
            {T.tryTitle}
          </Title>
          <Text size="sm" c="gray.7">
            {T.trySubtitle}
          </Text>
        </div>
        <Form method="get" action={KNOWLEDGE_PATH} preventScrollReset role="search" aria-label={T.tryTitle}>
          <Group align="flex-start" gap="sm" wrap="nowrap">
            <TextInput
              name="q"
              label="Question"
              placeholder="Do you ship to Austria?"
              defaultValue={trial?.question ?? ''}
              error={trial?.error ?? undefined}
              required
              maxLength={KNOWLEDGE_LIMITS.queryLength}
              style={{ flex: 1 }}
              // The results below change with each question; the field keeps what was asked.
              key={trial?.question ?? ''}
            />
            <Button
              type="submit"
              mt={25}
              leftSection={<IconSearch size={16} aria-hidden />}
              loading={searching}
            >
              Search
            </Button>
          </Group>
        </Form>
        <div aria-live="polite" aria-busy={searching}>
          {searching ? (
            <Group gap="xs" role="status">
              <Loader size="xs" />
              <Text size="sm" c="gray.7">
                {T.searching}
              </Text>
            </Group>
          ) : asked ? (
            asked.hits.length > 0 ? (
              <Stack gap="xs">
                <Text size="xs" c="gray.7">
                  {T.scoreHelp}
                </Text>
                <Stack
                  component="ol"
                  gap="xs"
                  p={0}
                  m={0}
                  style={{ listStyle: 'none' }}
                  aria-label="Passages found"
                >
                  {asked.hits.map((hit) => (
                    <Hit key={hit.passageId} hit={hit} />
                  ))}
                </Stack>
              </Stack>
            ) : (
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{T.noMatch}</Text>
                <Anchor
                  component={Link}
                  to={newFaqWithQuestion(asked.question)}
                  preventScrollReset
                  size="sm"
                  fw={600}
                >
                  <Group gap={4} component="span">
                    <IconPlus size={14} aria-hidden />
                    Add an FAQ with this question
                  </Group>
                </Anchor>
              </Stack>
            )
          ) : null}
        </div>
      </Stack>
    </Paper>
  )
}
