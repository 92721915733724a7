import { Anchor, Paper, SimpleGrid, Text } from '@mantine/core'
import { Link } from '@remix-run/react'
import type { Analytics } from '~/lib/analytics/analytics'
import {
  DASHBOARD_TEXTS as T,
  formatCount,
  formatCountOf,
  formatRate,
  formatSeconds,
  formatUsd,
} from '~/lib/analytics/dashboard'
import classes from './dashboard.module.css'

type Totals = Analytics['totals']

function Figure({ label, value, note }: { label: string; value: string; note?: React.ReactNode }) {
  return (
    <Paper withBorder p="md" component="li" style={{ listStyle: 'none' }}>
      <Text size="sm" c="gray.7" fw={500}>
        {label}
      </Text>
      <Text className={classes.figureValue}>{value}</Text>
      {note ? (
        <Text size="xs" c="gray.7">
          {note}
        </Text>
      ) : null}
    </Paper>
  )
}

/** The period's figures, one card each (a list, so that a screen reader counts them). */
export function Figures({ totals, attentionHref }: { totals: Totals; attentionHref: string }) {
  return (
    <SimpleGrid component="ul" aria-label="Figures" cols={{ base: 2, sm: 3, lg: 4 }} spacing="sm" p={0} m={0}>
      <Figure label="Customer messages received" value={formatCount(totals.received)} />
      <Figure label="Answered by AI" value={formatCount(totals.answeredByAi)} />
      <Figure label="Answered by a person" value={formatCount(totals.answeredByPerson)} />
      <Figure
        label="Not answered"
        value={formatCount(totals.notAnswered)}
        note={`${formatCount(totals.failed)} failed · ${formatCount(totals.paused)} paused · ${formatCount(totals.noKnowledge)} no answer in knowledge · ${formatCount(totals.noAgent)} no agent`}
      />
      <Figure label="AI answer rate" value={formatRate(totals.aiAnswerRate)} />
      <Figure
        label="AI resolution rate"
        value={formatRate(totals.aiResolutionRate)}
        note={
          totals.conversationsResolved > 0
            ? `${formatCount(totals.resolvedByAi)} of ${formatCountOf(totals.conversationsResolved, 'conversation', 'conversations')} resolved with no person`
            : 'No conversation resolved in this period'
        }
      />
      <Figure
        label="First response, median"
        value={formatSeconds(totals.firstResponseMedianSeconds)}
        note={`Over ${formatCountOf(totals.conversationsAnswered, 'conversation', 'conversations')} answered`}
      />
      <Figure label="First response, 90th percentile" value={formatSeconds(totals.firstResponseP90Seconds)} />
      <Figure label="Conversations started" value={formatCount(totals.conversationsStarted)} />
      <Figure label="Handoffs to a person" value={formatCount(totals.handoffs)} />
      <Figure
        label="Needing attention now"
        value={formatCount(totals.needingAttention)}
        note={
          <Anchor component={Link} to={attentionHref} size="xs">
            Open these conversations
          </Anchor>
        }
      />
      <Figure
        label="Tokens"
        value={formatCount(totals.totalTokens)}
        note={`${formatCount(totals.promptTokens)} prompt · ${formatCount(totals.completionTokens)} completion`}
      />
      <Figure
        label={T.costEstimate}
        value={formatUsd(totals.cost)}
        note={
          totals.unpricedTokens > 0
            ? `${T.costNote} ${formatCountOf(totals.unpricedTokens, 'token', 'tokens')} without a price.`
            : T.costNote
        }
      />
    </SimpleGrid>
  )
}
