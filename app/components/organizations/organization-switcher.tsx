import { Box, Group, Indicator, Menu, Text, UnstyledButton } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { IconCheck, IconPlus, IconSelector, IconX } from '@tabler/icons-react'
import { useFetcher } from '@remix-run/react'
import { useEffect } from 'react'
import type { AwaitingEmail, InvitationToAnswer, OrganizationSummary } from '~/lib/organizations/schemas'
import { EmailConfirmationMenuNotice } from './email-confirmation-notice'
import { OrgBadge } from './org-badge'
import classes from './organization-switcher.module.css'

type AnswerResult = {
  answered: 'accepted' | 'declined' | null
  joined: OrganizationSummary | null
  invitationError: string | null
}

export const pendingInvitationsText = (count: number) =>
  `${count} pending invitation${count === 1 ? '' : 's'}`

/** Accept or Decline from the switcher; the answer is told in a toast, and the list reloads by itself. */
function useInvitationAnswer() {
  const fetcher = useFetcher<AnswerResult>()
  const result = fetcher.state === 'idle' ? fetcher.data : undefined
  useEffect(() => {
    if (!result) return
    if (result.invitationError) notifications.show({ color: 'red', message: result.invitationError })
    else if (result.joined)
      notifications.show({ color: 'green', message: `You joined ${result.joined.name}` })
    else if (result.answered === 'declined') notifications.show({ message: 'Invitation declined' })
  }, [result])
  return (intent: 'accept-invitation' | 'decline-invitation', invitationId: string) =>
    fetcher.submit({ intent, invitationId }, { method: 'post', action: '/organization' })
}

export function OrganizationSwitcher({
  organizations,
  current,
  invitations,
  awaitingEmail = null,
  onCreate,
}: {
  organizations: OrganizationSummary[]
  current: OrganizationSummary | undefined
  invitations: InvitationToAnswer[]
  /** Invitations to the user's address that wait until they confirm it: counted, not named. */
  awaitingEmail?: AwaitingEmail | null
  onCreate: () => void
}) {
  const fetcher = useFetcher()
  const switchTo = (organizationId: string) =>
    fetcher.submit({ intent: 'switch', organizationId }, { method: 'post', action: '/organization' })
  const answer = useInvitationAnswer()
  const pending = invitations.length + (awaitingEmail?.organizations ?? 0)
  // The accessible name starts with the text shown (WCAG 2.5.3, label in name), then says what the link does.
  const shown = [
    current ? `${current.name}, ${current.role} · ${current.plan}` : 'No organizations yet',
    ...(pending ? [pendingInvitationsText(pending)] : []),
  ].join(', ')
  const label = `${shown}. ${current ? 'Switch organization' : 'Organization menu'}`

  return (
    <Menu position="bottom-start" width={264} shadow="md">
      <Menu.Target>
        {/* A link to the organizations page, so that switching works without JavaScript too. */}
        <UnstyledButton
          component="a"
          href="/organization"
          onClick={(e) => e.preventDefault()}
          className={classes.target}
          aria-label={label}
        >
          <Indicator label={pending} size={16} color="red" disabled={pending === 0} offset={2}>
            {current ? <OrgBadge name={current.name} /> : <OrgBadge name="+" />}
          </Indicator>
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
            {pending ? (
              <Text size="xs" c="red.8" fw={500} truncate>
                {pendingInvitationsText(pending)}
              </Text>
            ) : null}
          </Box>
          <IconSelector size={16} aria-hidden className={classes.chevron} data-sidebar-label />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {pending ? (
          <>
            <Menu.Label>Invitations</Menu.Label>
            {awaitingEmail ? <EmailConfirmationMenuNotice awaitingEmail={awaitingEmail} /> : null}
            {invitations.map((invitation) => (
              <Box
                key={invitation.id}
                px="sm"
                pb="xs"
                aria-label={`Invitation to ${invitation.organizationName}`}
                role="group"
              >
                <Group gap="xs" wrap="nowrap" py={4}>
                  <OrgBadge name={invitation.organizationName} size={24} />
                  <Box miw={0}>
                    <Text size="sm" fw={500} truncate>
                      {invitation.organizationName}
                    </Text>
                    {invitation.invitedBy ? (
                      <Text size="xs" c="gray.7" truncate>
                        Invited by {invitation.invitedBy}
                      </Text>
                    ) : null}
                  </Box>
                </Group>
                <Group gap={4} grow wrap="nowrap">
                  <Menu.Item
                    leftSection={<IconCheck size={14} aria-hidden />}
                    color="indigo"
                    onClick={() => answer('accept-invitation', invitation.id)}
                    aria-label={`Accept the invitation to ${invitation.organizationName}`}
                  >
                    Accept
                  </Menu.Item>
                  <Menu.Item
                    leftSection={<IconX size={14} aria-hidden />}
                    onClick={() => answer('decline-invitation', invitation.id)}
                    aria-label={`Decline the invitation to ${invitation.organizationName}`}
                  >
                    Decline
                  </Menu.Item>
                </Group>
              </Box>
            ))}
            <Menu.Divider />
          </>
        ) : null}
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
