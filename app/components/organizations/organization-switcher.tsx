import { Box, Menu, Text, UnstyledButton } from '@mantine/core'
import { IconCheck, IconPlus, IconSelector } from '@tabler/icons-react'
import { useFetcher } from '@remix-run/react'
import type { OrganizationSummary } from '~/lib/organization-schemas'
import { OrgBadge } from './org-badge'
import classes from './organization-switcher.module.css'

export function OrganizationSwitcher({
  organizations,
  current,
  onCreate,
}: {
  organizations: OrganizationSummary[]
  current: OrganizationSummary | undefined
  onCreate: () => void
}) {
  const fetcher = useFetcher()
  const switchTo = (organizationId: string) =>
    fetcher.submit({ intent: 'switch', organizationId }, { method: 'post', action: '/organization' })

  return (
    <Menu position="bottom-start" width={264} shadow="md">
      <Menu.Target>
        {/* A link to the organizations page, so that switching works without JavaScript too. */}
        <UnstyledButton
          component="a"
          href="/organization"
          onClick={(e) => e.preventDefault()}
          className={classes.target}
          aria-label={current ? `Organization: ${current.name}. Switch organization` : 'Organizations'}
        >
          {current ? <OrgBadge name={current.name} /> : <OrgBadge name="+" />}
          <Box className={classes.text} data-sidebar-label>
            {current ? (
              <>
                <Text size="sm" fw={600} truncate>
                  {current.name}
                </Text>
                <Text size="xs" c="gray.7" truncate>
                  {current.role} · {current.plan}
                </Text>
              </>
            ) : (
              <Text size="sm" c="gray.7">
                No organizations yet
              </Text>
            )}
          </Box>
          <IconSelector size={16} aria-hidden className={classes.chevron} data-sidebar-label />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Organizations</Menu.Label>
        {organizations.length === 0 ? (
          <Menu.Item disabled>No organizations yet</Menu.Item>
        ) : (
          organizations.map((o) => (
            <Menu.Item
              key={o.id}
              leftSection={<OrgBadge name={o.name} size={24} />}
              rightSection={
                o.id === current?.id ? <IconCheck size={16} aria-label="Current organization" /> : null
              }
              onClick={() => o.id !== current?.id && switchTo(o.id)}
              aria-current={o.id === current?.id ? 'true' : undefined}
            >
              <Text size="sm" fw={500} truncate>
                {o.name}
              </Text>
              <Text size="xs" c="gray.7">
                {o.role} · {o.plan}
              </Text>
            </Menu.Item>
          ))
        )}
        <Menu.Divider />
        <Menu.Item leftSection={<IconPlus size={16} aria-hidden />} onClick={onCreate}>
          Create Organization
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  )
}
