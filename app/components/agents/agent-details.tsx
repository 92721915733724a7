import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { IconFlask, IconPencil } from '@tabler/icons-react'
import { Link } from '@remix-run/react'
import { OUT_OF_HOURS_MODE_LABELS } from '~/lib/agents/behaviour'
import { MODEL_TYPE_LABELS, creativityLabel, creativityPercent } from '~/lib/agents/schemas'
import { scheduleLines } from '~/lib/agents/office-hours-summary'
import { StatusBadge } from './agent-status'
import classes from './agents.module.css'
import { DateTime } from '~/components/date-time'
import { agentPath } from './paths'
import type { AgentItem, KnowledgeSourceOption } from './types'
import { relevancePercent } from '~/lib/agents/knowledge'
import { languageLabel } from '~/lib/agents/agent-language'
import type { BuiltInLanguage } from '~/lib/agents/built-in-texts'
import { AGENT_KNOWLEDGE_MODE_LABELS, KNOWLEDGE_SOURCE_KIND_LABELS } from '~/lib/knowledge/knowledge'

const orDefault = (value: number | null) => (value === null ? 'Provider default' : String(value))

const waitText = (seconds: number) =>
  seconds === 0
    ? 'Off: each message is answered at once'
    : `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`

/** A message the agent sends, or what happens when it is empty. */
function MessageText({ value, empty }: { value: string; empty: string }) {
  return value ? (
    <Text span size="sm" className={classes.preformatted}>
      {value}
    </Text>
  ) : (
    <Text span size="sm" c="gray.7" fs="italic">
      {empty}
    </Text>
  )
}

/** The language the agent answers in (docs/decisions/072), with the languages it has its own messages in. */
function answersIn(agent: AgentItem) {
  const fixed = agent.replyLanguage ? languageLabel(agent.replyLanguage) : "The customer's language"
  const translated = Object.keys(agent.translations) as BuiltInLanguage[]
  return translated.length === 0
    ? fixed
    : `${fixed}; your own messages in ${translated.map(languageLabel).join(', ')}`
}

/** How the agent behaves in a conversation (issue #17). */
function BehaviourFacts({ agent }: { agent: AgentItem }) {
  const hours = agent.officeHours
  return (
    <section aria-labelledby="agent-behaviour-title">
      <Title order={4} size="h5" mb="xs" id="agent-behaviour-title">
        Behaviour
      </Title>
      <dl className={classes.facts}>
        <dt>Wait for typing</dt>
        <dd>{waitText(agent.burstWaitSeconds)}</dd>
        <dt>Handoff</dt>
        <dd>{agent.handoffEnabled ? 'On' : 'Off'}</dd>
        <dt>Handoff message</dt>
        <dd>
          <MessageText value={agent.handoffMessage} empty="None" />
        </dd>
        <dt>Fallback message</dt>
        <dd>
          <MessageText value={agent.fallbackMessage} empty="None: nothing is sent" />
        </dd>
        <dt>Text-only message</dt>
        <dd>
          <MessageText value={agent.unreadableMessage} empty="None: nothing is sent" />
        </dd>
        <dt>Answers in</dt>
        <dd>{answersIn(agent)}</dd>
        <dt>Office hours</dt>
        <dd>
          {hours ? (
            <Stack gap={2}>
              {scheduleLines(hours.days).map((line) => (
                <Text span size="sm" key={line}>
                  {line}
                </Text>
              ))}
              <Text span size="sm">
                Time zone: {hours.timeZone}
              </Text>
            </Stack>
          ) : (
            'Off: the agent answers at any time'
          )}
        </dd>
        {hours ? (
          <>
            <dt>Outside hours</dt>
            <dd>{OUT_OF_HOURS_MODE_LABELS[hours.outsideHours]}</dd>
            {hours.outsideHours === 'message' ? (
              <>
                <dt>Out-of-hours message</dt>
                <dd>
                  <MessageText value={hours.message} empty="None" />
                </dd>
              </>
            ) : null}
          </>
        ) : null}
      </dl>
    </section>
  )
}

/** What the agent answers from (issue #18). */
function KnowledgeFacts({ agent, sources }: { agent: AgentItem; sources: KnowledgeSourceOption[] }) {
  const byId = new Map(sources.map((source) => [source.id, source]))
  const selected = agent.knowledgeSourceIds.flatMap((id) => byId.get(id) ?? [])
  return (
    <section aria-labelledby="agent-knowledge-title">
      <Title order={4} size="h5" mb="xs" id="agent-knowledge-title">
        Knowledge
      </Title>
      <dl className={classes.facts}>
        <dt>Answers from</dt>
        <dd>{AGENT_KNOWLEDGE_MODE_LABELS[agent.knowledgeMode]}</dd>
        {agent.knowledgeMode === 'selected' ? (
          <>
            <dt>Sources</dt>
            <dd>
              {selected.length > 0 ? (
                <Stack gap={2}>
                  {selected.map((source) => (
                    <Text span size="sm" key={source.id} style={{ overflowWrap: 'anywhere' }}>
                      {source.title}{' '}
                      <Text span size="xs" c="gray.7">
                        ({KNOWLEDGE_SOURCE_KIND_LABELS[source.kind]})
                      </Text>
                    </Text>
                  ))}
                </Stack>
              ) : (
                <Text span size="sm" c="gray.7" fs="italic">
                  None left: the selected sources were deleted
                </Text>
              )}
            </dd>
          </>
        ) : null}
        {agent.knowledgeMode === 'none' ? null : (
          <>
            <dt>Passages</dt>
            <dd>Up to {agent.knowledgePassages} per answer</dd>
            <dt>Minimum relevance</dt>
            <dd>{relevancePercent(agent.knowledgeMinRelevance)}</dd>
            <dt>No-answer message</dt>
            <dd>
              <MessageText value={agent.knowledgeNoAnswerMessage} empty="None: nothing is sent" />
            </dd>
          </>
        )}
      </dl>
    </section>
  )
}

/** The content of the agent details dialog (View). */
export function AgentDetails({
  agent,
  knowledgeSources,
}: {
  agent: AgentItem
  /** The organization's sources, to name the selected ones. */
  knowledgeSources: KnowledgeSourceOption[]
}) {
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Title order={3} size="h4" style={{ overflowWrap: 'anywhere' }}>
          {agent.name}
        </Title>
        <StatusBadge status={agent.status} />
      </Group>
      <dl className={classes.facts}>
        <dt>Readable ID</dt>
        <dd>
          <Text span ff="monospace" size="sm">
            {agent.readableId}
          </Text>
        </dd>
        <dt>Description</dt>
        <dd>{agent.description || 'No description'}</dd>
        <dt>Model Type</dt>
        <dd>{MODEL_TYPE_LABELS[agent.modelType]}</dd>
        <dt>Creativity</dt>
        <dd>
          {creativityPercent(agent.creativityLevel)} ({creativityLabel(agent.creativityLevel)})
        </dd>
        <dt>Max Tokens</dt>
        <dd>{orDefault(agent.maxTokens)}</dd>
        <dt>Top P</dt>
        <dd>{orDefault(agent.topP)}</dd>
        <dt>Top K</dt>
        <dd>{orDefault(agent.topK)}</dd>
        <dt>Created By</dt>
        <dd>{agent.createdBy ?? 'Unknown'}</dd>
        <dt>Created</dt>
        <dd>
          <DateTime value={agent.createdAt} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <DateTime value={agent.updatedAt} />
        </dd>
      </dl>
      <div>
        <Text size="sm" c="gray.7" mb={4}>
          System Prompt
        </Text>
        <Paper withBorder p="sm" bg="gray.0">
          <Text className={classes.preformatted}>{agent.systemPrompt}</Text>
        </Paper>
      </div>
      <BehaviourFacts agent={agent} />
      <KnowledgeFacts agent={agent} sources={knowledgeSources} />
      <Group justify="flex-end">
        <Button
          component={Link}
          to={agentPath(agent.id, 'test')}
          preventScrollReset
          variant="default"
          leftSection={<IconFlask size={16} aria-hidden />}
        >
          Test Agent
        </Button>
        <Button
          component={Link}
          to={agentPath(agent.id, 'edit')}
          preventScrollReset
          leftSection={<IconPencil size={16} aria-hidden />}
        >
          Edit Agent
        </Button>
      </Group>
    </Stack>
  )
}
