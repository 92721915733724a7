import { Anchor, Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core'
import { Link } from '@remix-run/react'
import { useId } from 'react'
import { conversationPath } from '~/components/conversations/paths'
import type { Analytics } from '~/lib/analytics/analytics'
import { formatCount } from '~/lib/analytics/dashboard'
import classes from './dashboard.module.css'

/** The most frequent reasons messages went unanswered, each with links to its latest conversations in the inbox. */
export function FailureReasons({ reasons }: { reasons: Analytics['failureReasons'] }) {
  const titleId = useId()
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId} className={classes.deferred}>
      <Title order={2} size="h4" id={titleId} mb="sm">
        Top failure reasons
      </Title>
      {reasons.length === 0 ? (
        <Text c="gray.7">No message went unanswered in this period.</Text>
      ) : (
        <Table withTableBorder fz="sm" aria-labelledby={titleId}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Reason</Table.Th>
              <Table.Th scope="col" className={classes.num}>
                Messages
              </Table.Th>
              <Table.Th scope="col">Latest conversations</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {reasons.map((reason) => (
              <Table.Tr key={`${reason.kind}:${reason.reason}`}>
                <Table.Th scope="row" fw={400}>
                  <Stack gap={2}>
                    <Text size="sm">{reason.reason}</Text>
                    {/* Dark text on the light tint: Mantine's light red is under 4.5:1 at a badge's size. */}
                    <Badge
                      size="sm"
                      variant="light"
                      color={reason.kind === 'failed' ? 'red' : 'gray'}
                      c={reason.kind === 'failed' ? 'red.9' : 'gray.8'}
                      style={{ textTransform: 'none' }}
                    >
                      {reason.kind === 'failed' ? 'Reply failed' : 'Left to a person'}
                    </Badge>
                  </Stack>
                </Table.Th>
                <Table.Td className={classes.num}>{formatCount(reason.messages)}</Table.Td>
                <Table.Td>
                  <Group gap="xs">
                    {reason.conversationIds.map((id, index) => (
                      <Anchor
                        key={id}
                        component={Link}
                        to={conversationPath(id)}
                        size="sm"
                        aria-label={`Conversation ${index + 1} with “${reason.reason}”`}
                      >
                        {`#${index + 1}`}
                      </Anchor>
                    ))}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  )
}
