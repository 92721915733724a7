import { Anchor, List, Paper, Text, ThemeIcon, Title } from '@mantine/core'
import { IconCheck, IconCircleDashed } from '@tabler/icons-react'
import { Link } from '@remix-run/react'
import {
  GETTING_STARTED_STEPS,
  GETTING_STARTED_TEXTS as T,
  gettingStartedHref,
  type GettingStarted,
} from '~/lib/analytics/dashboard'

/** A new organization's dashboard: the steps to a first answered message, ticked from what exists. */
export function GettingStartedChecklist({ steps, channelId, agentId }: GettingStarted) {
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="getting-started-title">
      <Title order={2} size="h3" id="getting-started-title">
        {T.title}
      </Title>
      <Text c="gray.7" mt={4} mb="md">
        {T.intro}
      </Text>
      <List spacing="md" aria-label={T.title} listStyleType="none" type="ordered">
        {GETTING_STARTED_STEPS.map((step) => {
          const done = steps[step]
          return (
            <List.Item
              key={step}
              data-step={step}
              data-done={done}
              icon={
                <ThemeIcon
                  color={done ? 'teal' : 'gray'}
                  variant={done ? 'filled' : 'light'}
                  radius="xl"
                  size={26}
                >
                  {done ? <IconCheck size={16} aria-hidden /> : <IconCircleDashed size={16} aria-hidden />}
                </ThemeIcon>
              }
            >
              <Text fw={600} c={done ? 'gray.7' : undefined}>
                {done ? (
                  T.steps[step]
                ) : (
                  <Anchor component={Link} to={gettingStartedHref(step, { channelId, agentId })} fw={600}>
                    {T.steps[step]}
                  </Anchor>
                )}
                <Text span size="sm" fw={400} c={done ? 'teal.9' : 'gray.7'}>
                  {` — ${done ? T.done : T.todo}`}
                </Text>
              </Text>
              {done ? null : (
                <Text size="sm" c="gray.7">
                  {T.hints[step]}
                </Text>
              )}
            </List.Item>
          )
        })}
      </List>
    </Paper>
  )
}
