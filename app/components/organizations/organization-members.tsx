import type { SubmissionResult } from '@conform-to/react'
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core'
import { Form, Link, useNavigate, useNavigation, useSearchParams } from '@remix-run/react'
import type { ReactNode } from 'react'
import { FormError } from '~/components/auth/form-error'
import { PendingButton, RowActionForm } from '~/components/forms/pending-button'
import { ListRow, RowList } from './list-row'
import { useHydrated } from '~/components/hooks/use-hydrated'
import type { OrganizationInvitation, OrganizationSummary } from '~/lib/organizations/schemas'
import { InviteMemberForm } from './invite-member-form'

export type MemberRow = { uid: string; email: string | null; displayName: string | null; role: string }
export type PendingInvitationRow = Pick<OrganizationInvitation, 'id' | 'invitee' | 'invitedBy'>

/** The query parameter that asks to confirm leaving: a link, so that it works without JavaScript too. */
export const CONFIRM_LEAVE_PARAM = 'leave'

function useSubmitting(intent: string) {
  const navigation = useNavigation()
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
}

function MembersTable({ members, myUid }: { members: MemberRow[]; myUid: string | undefined }) {
  const removing = useNavigation().formData?.get('uid')
  return (
    <Table verticalSpacing="xs" aria-label="Members">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Email</Table.Th>
          <Table.Th>Role</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {members.map((m) => {
          const name = m.displayName ?? m.email ?? 'Member'
          return (
            <Table.Tr key={m.uid}>
              <Table.Td>
                {name}
                {m.uid === myUid ? (
                  <Text span size="xs" c="gray.7">
                    {' '}
                    (you)
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>{m.email ?? '—'}</Table.Td>
              <Table.Td>{m.role}</Table.Td>
              <Table.Td ta="right">
                {m.uid === myUid ? null : (
                  <RowActionForm
                    field={{ name: 'uid', value: m.uid }}
                    intent="remove-member"
                    variant="subtle"
                    color="red"
                    pending={removing === m.uid}
                    pendingLabel="Removing..."
                    aria-label={`Remove ${name}`}
                  >
                    Remove
                  </RowActionForm>
                )}
              </Table.Td>
            </Table.Tr>
          )
        })}
      </Table.Tbody>
    </Table>
  )
}

function PendingInvitations({ invitations }: { invitations: PendingInvitationRow[] }) {
  const revoking = useNavigation().formData?.get('invitationId')
  if (invitations.length === 0) return <Text c="gray.7">No pending invitations</Text>
  return (
    <RowList gap="xs">
      {invitations.map((i) => (
        <ListRow key={i.id} title={i.invitee} detail={i.invitedBy ? `Invited by ${i.invitedBy}` : undefined}>
          <RowActionForm
            field={{ name: 'invitationId', value: i.id }}
            intent="revoke-invitation"
            variant="default"
            pending={revoking === i.id}
            pendingLabel="Revoking..."
            aria-label={`Revoke the invitation to ${i.invitee}`}
          >
            Revoke
          </RowActionForm>
        </ListRow>
      ))}
    </RowList>
  )
}

function LeaveConfirmation({ organizationName }: { organizationName: string }) {
  const leaving = useSubmitting('leave')
  return (
    <Stack gap="md">
      <Text>
        You will lose access to {organizationName}: its channels, agents and conversations. To come back, an
        owner must invite you again.
      </Text>
      {/* Posted to the page without ?leave, so that the next organization's confirmation does not open. */}
      <Form method="post" action="/settings">
        <Group justify="flex-end">
          <Button component={Link} to="/settings" replace preventScrollReset variant="default">
            Cancel
          </Button>
          <PendingButton name="intent" value="leave" color="red" pending={leaving} pendingLabel="Leaving...">
            Leave organization
          </PendingButton>
        </Group>
      </Form>
    </Stack>
  )
}

/** Leaving, with a confirmation: a dialog once the page runs, a section of the page without JavaScript. */
function LeaveOrganization({ organizationName, canLeave }: { organizationName: string; canLeave: boolean }) {
  const hydrated = useHydrated()
  const navigate = useNavigate()
  const [searchParams] = useSearchParams()
  const confirming = canLeave && searchParams.has(CONFIRM_LEAVE_PARAM)
  const title = `Leave ${organizationName}?`
  if (!canLeave) {
    return (
      <Stack gap="xs" align="flex-start">
        <Button color="red" variant="light" disabled aria-describedby="last-owner-reason">
          Leave organization
        </Button>
        <Text size="sm" c="gray.7" id="last-owner-reason">
          You are the only owner of {organizationName}. An organization needs at least one owner, so you
          cannot leave it.
        </Text>
      </Stack>
    )
  }
  let confirmation: ReactNode = null
  if (hydrated) {
    confirmation = (
      <Modal
        opened={confirming}
        onClose={() => navigate('/settings', { replace: true, preventScrollReset: true })}
        title={title}
        centered
      >
        <LeaveConfirmation organizationName={organizationName} />
      </Modal>
    )
  } else if (confirming) {
    confirmation = (
      <Paper withBorder p="md" mt="md" role="region" aria-label={title}>
        <Title order={3} size="h5" mb="sm">
          {title}
        </Title>
        <LeaveConfirmation organizationName={organizationName} />
      </Paper>
    )
  }
  return (
    <>
      <Button component={Link} to={`?${CONFIRM_LEAVE_PARAM}`} preventScrollReset color="red" variant="light">
        Leave organization
      </Button>
      {confirmation}
    </>
  )
}

/** The Settings section about the current organization's people: owners invite and manage, anyone may leave. */
export function OrganizationMembers({
  organization,
  myUid,
  members,
  invitations,
  canLeave,
  inviteResult,
  notice,
  error,
}: {
  organization: Pick<OrganizationSummary, 'name' | 'role'>
  myUid: string | undefined
  members: MemberRow[] | null
  invitations: PendingInvitationRow[] | null
  canLeave: boolean
  inviteResult: SubmissionResult<string[]> | undefined
  notice: string | null
  error: string | null
}) {
  const inviting = useSubmitting('invite')
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="organization-members-heading">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4" id="organization-members-heading">
          Organization members
        </Title>
        <Badge variant="light">
          {organization.name} · {organization.role}
        </Badge>
      </Group>
      <Stack gap="lg">
        <FormError message={error ?? undefined} />
        {notice ? (
          <Alert color="green" variant="light" role="status">
            {notice}
          </Alert>
        ) : null}
        {members && invitations ? (
          <>
            <div>
              <Title order={3} size="h5" mb="xs">
                Invite a member
              </Title>
              <InviteMemberForm lastResult={inviteResult} pending={inviting} />
              <Text size="xs" c="gray.7" mt={4}>
                They join when they accept, from the organization switcher after signing in with this email.
              </Text>
            </div>
            <div>
              <Title order={3} size="h5" mb="xs">
                Members
              </Title>
              <MembersTable members={members} myUid={myUid} />
            </div>
            <div>
              <Title order={3} size="h5" mb="xs">
                Pending invitations
              </Title>
              <PendingInvitations invitations={invitations} />
            </div>
          </>
        ) : (
          <Text c="gray.7">
            You are a member of {organization.name}. Its owners invite and manage members.
          </Text>
        )}
        <div>
          <Title order={3} size="h5" mb="xs">
            Leave organization
          </Title>
          <LeaveOrganization organizationName={organization.name} canLeave={canLeave} />
        </div>
      </Stack>
    </Paper>
  )
}
