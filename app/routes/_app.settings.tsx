import { parseWithZod } from '@conform-to/zod/v4'
import { Anchor, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { PendingButton } from '~/components/forms/pending-button'
import { PageHeader } from '~/components/layout/page-header'
import { SettingsSection } from '~/components/layout/settings-section'
import { OrganizationMembers } from '~/components/organizations/organization-members'
import {
  OrganizationTimeZoneForm,
  TIME_ZONE_INTENT,
} from '~/components/organizations/organization-time-zone-form'
import { timeZoneList } from '~/lib/agents/behaviour-form'
import { ANALYTICS_TEXTS, organizationTimeZoneSchema } from '~/lib/analytics/analytics'
import { PRODUCT_NAME } from '~/lib/shared/constants'
import { NOTIFICATION_TEXTS } from '~/lib/notifications/notifications'
import { CUSTOMER_WORDS_TEXTS } from '~/lib/knowledge/customer-words'
import { invitationMessage, inviteMemberSchema } from '~/lib/organizations/schemas'
import { inviteMember, listInvitations, revokeInvitation } from '~/services/organizations/invitations.server'
import {
  getOrganization,
  leaveOrganization,
  listMembers,
  removeMember,
  updateOrganizationTimeZone,
} from '~/services/organizations/organizations.server'
import { attemptInScope, getCurrentScope } from '~/http/organization.server'
import type { loader as appLoader } from './_app'

export const meta: MetaFunction = () => [{ title: `Settings · ${PRODUCT_NAME}` }]

/** The current organization (with its time zone) and, for its owners, its members and pending invitations. */
export async function loader({ request }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  if (!scope) return { organization: null, members: null, invitations: null, canLeave: false, timeZones: [] }
  const organization = await getOrganization(scope)
  const timeZones = timeZoneList()
  if (scope.role !== 'owner') {
    return { organization, members: null, invitations: null, canLeave: true, timeZones }
  }
  const [members, invitations] = await Promise.all([listMembers(scope), listInvitations(scope)])
  return {
    organization,
    timeZones,
    members,
    invitations: invitations.map(({ id, invitee, invitedBy }) => ({ id, invitee, invitedBy })),
    canLeave: members.filter((m) => m.role === 'owner').length > 1,
  }
}

const memberActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('revoke-invitation'), invitationId: z.uuid() }),
  z.object({ intent: z.literal('remove-member'), uid: z.string().min(1).max(200) }),
  z.object({ intent: z.literal('leave') }),
])

const FAILED = 'Something went wrong. Please try again.'

export async function action({ request }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const formData = await request.formData()
  const context = { route: 'settings', intent: formData.get('intent') }

  if (formData.get('intent') === TIME_ZONE_INTENT) {
    const submission = parseWithZod(formData, { schema: organizationTimeZoneSchema })
    if (submission.status !== 'success') {
      return data({ timeZoneResult: submission.reply(), notice: null, error: null }, 400)
    }
    const { timeZone } = submission.value
    const outcome = await attemptInScope(
      scope,
      (s) => updateOrganizationTimeZone(s, timeZone),
      FAILED,
      context,
    )
    if (!outcome.ok) {
      const timeZoneResult = submission.reply({ formErrors: [outcome.failure.reason] })
      return data({ timeZoneResult, notice: null, error: null }, outcome.failure.status)
    }
    return {
      timeZoneResult: submission.reply(),
      timeZoneNotice: ANALYTICS_TEXTS.timeZoneSaved(outcome.value?.timeZone ?? timeZone),
      notice: null,
      error: null,
    }
  }

  if (formData.get('intent') === 'invite') {
    const submission = parseWithZod(formData, { schema: inviteMemberSchema })
    if (submission.status !== 'success') {
      return data({ inviteResult: submission.reply(), notice: null, error: null }, 400)
    }
    const outcome = await attemptInScope(scope, (s) => inviteMember(s, submission.value), FAILED, context)
    if (!outcome.ok) {
      const inviteResult = submission.reply({ formErrors: [outcome.failure.reason] })
      return data({ inviteResult, notice: null, error: null }, outcome.failure.status)
    }
    return {
      inviteResult: submission.reply({ resetForm: true }),
      notice: invitationMessage(outcome.value.created),
      error: null,
    }
  }

  const parsed = memberActionSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) throw data('Invalid request', 400)
  const command = parsed.data
  const outcome = await attemptInScope(
    scope,
    async (s) => {
      if (command.intent === 'revoke-invitation') {
        await revokeInvitation(s, command.invitationId)
        return 'Invitation revoked'
      }
      if (command.intent === 'remove-member') {
        await removeMember(s, command.uid)
        return 'Member removed'
      }
      const organization = await getOrganization(s)
      await leaveOrganization(s)
      return `You left ${organization?.name ?? 'the organization'}`
    },
    FAILED,
    context,
  )
  if (!outcome.ok) {
    return data(
      { inviteResult: undefined, notice: null, error: outcome.failure.reason },
      outcome.failure.status,
    )
  }
  return { inviteResult: undefined, notice: outcome.value, error: null }
}

function Field({ label, value }: { label: string; value: string | null }) {
  if (!value) return null
  return (
    <div>
      <Text size="sm" c="gray.7">
        {label}
      </Text>
      <Text fw={500} style={{ wordBreak: 'break-all' }}>
        {value}
      </Text>
    </div>
  )
}

export default function SettingsPage() {
  const data = useRouteLoaderData<typeof appLoader>('routes/_app')
  const { organization, members, invitations, canLeave, timeZones } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const savingTimeZone =
    navigation.state === 'submitting' && navigation.formData?.get('intent') === TIME_ZONE_INTENT
  const signingOut = navigation.state !== 'idle' && navigation.formAction === '/logout'
  const user = data?.user
  return (
    <>
      <PageHeader title="Settings" subtitle="Your account" />
      <Stack gap="lg" maw={720}>
        {user ? (
          <Paper withBorder p="lg">
            <Title order={2} size="h4" mb="md">
              Account Information
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Field label="Name" value={user.displayName} />
              <Field label="Email" value={user.email} />
              <Field label="User ID" value={user.uid} />
            </SimpleGrid>
          </Paper>
        ) : null}
        <SettingsSection id="notifications" title="Notifications" hint={NOTIFICATION_TEXTS.settingsSummary}>
          <Anchor component={Link} to="/settings/notifications">
            {NOTIFICATION_TEXTS.settingsLink}
          </Anchor>
        </SettingsSection>
        {organization ? (
          <SettingsSection
            id="knowledge-settings"
            title="Knowledge"
            hint={CUSTOMER_WORDS_TEXTS.settingsSummary}
          >
            <Anchor component={Link} to="/settings/knowledge">
              {CUSTOMER_WORDS_TEXTS.title}
            </Anchor>
          </SettingsSection>
        ) : null}
        {organization ? (
          <OrganizationTimeZoneForm
            timeZone={organization.timeZone}
            timeZones={timeZones}
            canEdit={organization.role === 'owner'}
            lastResult={actionData && 'timeZoneResult' in actionData ? actionData.timeZoneResult : undefined}
            notice={actionData && 'timeZoneNotice' in actionData ? (actionData.timeZoneNotice ?? null) : null}
            pending={savingTimeZone}
          />
        ) : null}
        {organization ? (
          <OrganizationMembers
            organization={organization}
            myUid={user?.uid}
            members={members}
            invitations={invitations}
            canLeave={canLeave}
            inviteResult={actionData && 'inviteResult' in actionData ? actionData.inviteResult : undefined}
            notice={actionData?.notice ?? null}
            error={actionData?.error ?? null}
          />
        ) : (
          <Paper withBorder p="lg" component="section" aria-labelledby="organization-members-heading">
            <Title order={2} size="h4" mb="md" id="organization-members-heading">
              Organization members
            </Title>
            {actionData?.notice ? <Text mb="xs">{actionData.notice}</Text> : null}
            <Text c="gray.7">No organization selected</Text>
          </Paper>
        )}
        <Paper withBorder p="lg">
          <Title order={2} size="h4" mb="md">
            Account Actions
          </Title>
          <Form method="post" action="/logout">
            <PendingButton color="red" variant="light" pending={signingOut} pendingLabel="Signing out...">
              Sign Out
            </PendingButton>
          </Form>
        </Paper>
      </Stack>
    </>
  )
}
