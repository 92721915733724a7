import { Button, Paper, Stack, Text, ThemeIcon } from '@mantine/core'
import { IconBuilding } from '@tabler/icons-react'
import { Link } from '@remix-run/react'

/** The page's own words, and where to go: the Organizations page creates one (or accepts an invitation). */
export const NO_ORGANIZATION_TEXTS = {
  title: 'No organization selected',
  create: 'Create an organization',
} as const
export const ORGANIZATIONS_PATH = '/organization'

/**
 * What a page shows with no organization (a person who cancelled their first one, or left their last): the
 * reason, what the page would manage, and a way on — not a dead end (issue 34).
 */
export function NoOrganization({ hint }: { hint: string }) {
  return (
    <Paper withBorder p="xl">
      <Stack align="center" gap="xs" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light" color="gray">
          <IconBuilding size={28} aria-hidden />
        </ThemeIcon>
        <Text fw={600} size="lg">
          {NO_ORGANIZATION_TEXTS.title}
        </Text>
        <Text c="gray.7">{hint}</Text>
        <Button component={Link} to={ORGANIZATIONS_PATH} mt="xs">
          {NO_ORGANIZATION_TEXTS.create}
        </Button>
      </Stack>
    </Paper>
  )
}
